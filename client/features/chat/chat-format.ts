import type { ChatMessage } from '@contracts/chat.contract';

/** Words and shapes of the chat screens: day dividers, times, links in plain text. */

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
const day = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long' });
const dayWithYear = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
const shortDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** The reader's local calendar day of a timestamp, as a sortable key ("2025-03-01"). */
export function dayKey(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A day divider's words: "Today", "Yesterday", or the date (with the year when it is not this one). */
export function dayLabel(iso: string, now: Date = new Date()): string {
  const key = dayKey(iso);
  if (key === dayKey(now.toISOString())) return 'Today';
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  if (key === dayKey(yesterday.toISOString())) return 'Yesterday';
  const date = new Date(iso);
  return (date.getFullYear() === now.getFullYear() ? day : dayWithYear).format(date);
}

/** "09:30" in the reader's locale. */
export const formatTime = (iso: string) => time.format(new Date(iso));

/** A channel row's time of its latest message: the time today, else the short date. */
export const formatListTime = (iso: string, now: Date = new Date()) => (dayKey(iso) === dayKey(now.toISOString()) ? formatTime(iso) : shortDay.format(new Date(iso)));

/** Messages of one day, oldest first. */
export type DayGroup = { key: string; label: string; messages: ChatMessage[] };

/** Oldest-first messages split into days. */
export function groupByDay(oldestFirst: readonly ChatMessage[], now: Date = new Date()): DayGroup[] {
  const groups: DayGroup[] = [];
  for (const message of oldestFirst) {
    const key = dayKey(message.createdAt);
    const last = groups.at(-1);
    if (last?.key === key) last.messages.push(message);
    else groups.push({ key, label: dayLabel(message.createdAt, now), messages: [message] });
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

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

const URL_PATTERN = /\bhttps?:\/\/[^\s<>"'`]+/gi;
// Sentence punctuation after a link belongs to the sentence ("see https://x.example/a.").
const TRAILING = /[.,;:!?'"]+$/;

/** Plain text split into text and http(s) links; nothing else is ever interpreted (no HTML, no markdown). */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    let url = match[0].replace(TRAILING, '');
    // A closing bracket is the sentence's unless the link opened one itself: "(see https://x.example/a)".
    while (url.endsWith(')') && (url.match(/\(/g) ?? []).length < (url.match(/\)/g) ?? []).length) url = url.slice(0, -1);
    const start = match.index;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    parts.push({ kind: 'link', text: url, href: url });
    at = start + url.length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
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
