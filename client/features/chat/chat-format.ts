import type { ChatMessage } from '@contracts/chat.contract';
import { dayKey, formatDay, formatTime } from '@/lib/format';

/** Words and shapes of the chat screens: day groups, list times, previews (the dates themselves: lib/format; links: lib/linked-text). */

const shortDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** A channel row's time of its latest message: the time today, else the short date. */
export const formatListTime = (iso: string, now: Date = new Date()) => (dayKey(iso) === dayKey(now) ? formatTime(iso) : shortDay.format(new Date(iso)));

/** Messages of one day, oldest first. */
export type DayGroup = { key: string; label: string; messages: ChatMessage[] };

/** Oldest-first messages split into days. */
export function groupByDay(oldestFirst: readonly ChatMessage[], now: Date = new Date()): DayGroup[] {
  const groups: DayGroup[] = [];
  for (const message of oldestFirst) {
    const key = dayKey(message.createdAt);
    const last = groups.at(-1);
    if (last?.key === key) last.messages.push(message);
    else groups.push({ key, label: formatDay(message.createdAt, now), messages: [message] });
  }
  return groups;
}

/** A message shown under the one before it without its name again: same author, within five minutes. */
export const CONTINUES_WITHIN_MS = 5 * 60_000;
export function continuesFrom(previous: ChatMessage | undefined, message: ChatMessage): boolean {
  if (!previous || previous.deleted || message.deleted) return false;
  if (previous.author.kind !== message.author.kind || previous.author.accountId !== message.author.accountId || previous.author.name !== message.author.name) return false;
  return new Date(message.createdAt).getTime() - new Date(previous.createdAt).getTime() < CONTINUES_WITHIN_MS;
}

/** "1 new message", "3 new messages". */
export const countLabel = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** A channel row's preview of its latest message ("You: on my way", "Sam: …"). */
export function previewOf(message: ChatMessage | null, me: number): string {
  if (!message) return 'No messages yet';
  const who = message.author.accountId === me ? 'You' : message.author.name;
  if (message.deleted) return `${who}: message deleted`;
  return `${who}: ${message.body.replace(/\s+/g, ' ')}`;
}

export function initials(name: string): string {
  return (
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((part) => part[0]!.toUpperCase())
      .join('') || '?'
  );
}
