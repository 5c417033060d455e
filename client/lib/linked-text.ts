/**
 * Web links in plain text someone typed (a chat message, a guest's question). The text is split
 * into plain runs and links; `<LinkedText>` renders them as text nodes and `<a>`s, so nothing a
 * sender writes is ever read as HTML or markdown.
 */

export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

// http(s) addresses and bare www. ones; any other scheme (javascript:, data:) stays text.
const LINK = /\b(?:https?:\/\/|www\.)[^\s<>"'`]+/gi;
const SCHEME = /^(?:https?:\/\/|www\.)/i;
// Punctuation that ends a sentence rather than the address ("see https://x.example/menu.").
const SENTENCE_END = new Set(['.', ',', ';', ':', '!', '?', "'", '"', '»', '”', '’']);
// A closing bracket belongs to the address only when the address opened one: https://en.wikipedia.org/wiki/Laksa_(dish)
const OPENER: Record<string, string> = { ')': '(', ']': '[', '}': '{' };

const count = (text: string, char: string) => text.split(char).length - 1;

/** The address without what belongs to the sentence around it: trailing punctuation, unmatched closing brackets. */
function trimEnd(found: string): string {
  let url = found;
  for (;;) {
    const last = url.at(-1) ?? '';
    const opener = OPENER[last];
    if (SENTENCE_END.has(last) || (opener !== undefined && count(url, opener) < count(url, last))) url = url.slice(0, -1);
    else return url;
  }
}

/** Plain text split into text and web links (http, https, and www. addresses, which open as https). */
export function linkParts(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(LINK)) {
    const start = match.index;
    const url = trimEnd(match[0]);
    // Only a scheme and punctuation ("https://…", "www..") is not an address.
    const scheme = SCHEME.exec(url)?.[0];
    if (!scheme || !/[a-z0-9]/i.test(url.slice(scheme.length))) continue;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    parts.push({ kind: 'link', text: url, href: /^www\./i.test(url) ? `https://${url}` : url });
    at = start + url.length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
