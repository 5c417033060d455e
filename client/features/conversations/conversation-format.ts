import { useEffect, useState } from 'react';
import type { ConversationStatus, ConversationSummary } from '@contracts/conversations.contract';

/** Conversations in words: ages, day dividers, where the guest is, links in a message. */

export const STATUS_LABELS: Record<ConversationStatus, string> = { open: 'Open', resolved: 'Resolved' };

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const shortDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dayLong = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const clock = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "just now", "5 minutes ago", "3 hours ago", "yesterday", then the date: how the list says when. */
export function formatRelative(iso: string, now: number): string {
  const at = new Date(iso).getTime();
  const ago = now - at;
  if (ago < MINUTE) return 'just now';
  if (ago < HOUR) return relative.format(-Math.floor(ago / MINUTE), 'minute');
  if (ago < DAY) return relative.format(-Math.floor(ago / HOUR), 'hour');
  if (ago < 7 * DAY) return relative.format(-Math.round(ago / DAY), 'day');
  return shortDate.format(new Date(at));
}

/** The time of day of a message ("09:30"). */
export const formatClock = (iso: string) => clock.format(new Date(iso));

const dayKey = (date: Date) => `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
/** Which local day a timestamp falls on (messages of one day share a divider). */
export const localDay = (iso: string) => dayKey(new Date(iso));

/** A day divider: "Today", "Yesterday", or the whole date. */
export function formatDay(iso: string, now: number): string {
  const date = new Date(iso);
  if (dayKey(date) === dayKey(new Date(now))) return 'Today';
  if (dayKey(date) === dayKey(new Date(now - DAY))) return 'Yesterday';
  return dayLong.format(date);
}

/** Where to find the guest: "Table 4", their email, or both. */
export function guestWhere(conversation: Pick<ConversationSummary, 'table' | 'email'>): string {
  return [conversation.table ? `Table ${conversation.table}` : '', conversation.email ?? ''].filter(Boolean).join(' · ');
}

/** The current time, moving on every `everyMs` (relative times in a list that stays open). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// http(s) addresses and bare www. ones; any other scheme (javascript:, data:) stays text.
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"']+/gi;
// Punctuation that ends a sentence rather than the address ("see https://x.example/menu.").
const TRAILING = /[.,;:!?)\]}'"»”’]+$/;

/**
 * A message split into plain text and web links. The parts are rendered as text and `<a>`
 * elements by React, so nothing a sender writes is ever read as HTML.
 */
export function linkParts(body: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of body.matchAll(LINK)) {
    const start = match.index;
    const found = match[0];
    const trailing = TRAILING.exec(found)?.[0] ?? '';
    // An opening bracket inside the link keeps its closing one: https://en.wikipedia.org/wiki/Laksa_(dish)
    const keepParen = trailing.startsWith(')') && found.slice(0, found.length - trailing.length).includes('(');
    const text = keepParen ? found.slice(0, found.length - trailing.length + 1) : found.slice(0, found.length - trailing.length);
    if (!/[a-z0-9]/i.test(text.replace(/^(?:https?:\/\/|www\.)/i, ''))) continue;
    if (start > last) parts.push({ kind: 'text', text: body.slice(last, start) });
    parts.push({ kind: 'link', text, href: /^www\./i.test(text) ? `https://${text}` : text });
    last = start + text.length;
  }
  if (last < body.length) parts.push({ kind: 'text', text: body.slice(last) });
  return parts;
}
