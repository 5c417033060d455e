import type { ConversationStatus, ConversationSummary } from '@contracts/conversations.contract';
import { onFirstUse } from '@/lib/on-first-use';

/** Conversations in words: ages in the list, where the guest is (day dividers and times: lib/format). */

export const STATUS_LABELS: Record<ConversationStatus, string> = { open: 'Open', resolved: 'Resolved' };

const relative = onFirstUse(() => new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' }));
const shortDate = onFirstUse(() => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", then the date: how the list says when. */
export function formatRelative(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  const ago = now - at;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative().format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return relative().format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return relative().format(-Math.round(ago / DAY), 'day');
  return shortDate().format(new Date(at));
}

/** Where to find the guest: "Table 4", their email, or both. */
export function guestWhere(conversation: Pick<ConversationSummary, 'table' | 'email'>): string {
  return [conversation.table ? `Table ${conversation.table}` : '', conversation.email ?? ''].filter(Boolean).join(' · ');
}
