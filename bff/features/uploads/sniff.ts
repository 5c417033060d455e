/**
 * Does a file's beginning match the type it claims? Read from the bytes, never from the name: a
 * file called `photo.png` that starts like an HTML page is refused. Office documents are ZIP
 * (OOXML, OpenDocument) or OLE (the older formats) containers; text is UTF-8 without NUL bytes.
 */

/** How many leading bytes the checks need. */
export const SNIFF_BYTES = 4100;

/** Fewer bytes than this (of a file that has more) cannot tell its type: the longest signature checked is 12 bytes. */
export const FEWEST_TELLING_BYTES = 16;

const startsWith = (bytes: Buffer, signature: readonly number[], at = 0) => signature.every((byte, i) => bytes[at + i] === byte);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** UTF-8 text: no NUL byte and no invalid sequence (a character cut off at the end of the sample is fine). */
function looksLikeText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    // Streaming, the decoder keeps a character the sample cut in half for bytes that never come,
    // yet still fails on any byte that cannot be UTF-8, the last ones included.
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

const CHECKS: Record<string, (bytes: Buffer) => boolean> = {
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  'image/gif': (b) => startsWith(b, ascii('GIF87a')) || startsWith(b, ascii('GIF89a')),
  'image/webp': (b) => startsWith(b, ascii('RIFF')) && startsWith(b, ascii('WEBP'), 8),
  'application/pdf': (b) => startsWith(b, ascii('%PDF-')),
  'text/csv': looksLikeText,
  'text/plain': looksLikeText,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': (b) => startsWith(b, ZIP),
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': (b) => startsWith(b, ZIP),
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': (b) => startsWith(b, ZIP),
  'application/vnd.oasis.opendocument.text': (b) => startsWith(b, ZIP),
  'application/vnd.oasis.opendocument.spreadsheet': (b) => startsWith(b, ZIP),
  'application/msword': (b) => startsWith(b, OLE),
  'application/vnd.ms-excel': (b) => startsWith(b, OLE),
};

/** True when `bytes` (the file's first {@link SNIFF_BYTES}, or all of a smaller file) fit `type`. An empty file fits only text. */
export function bytesMatchType(type: string, bytes: Buffer): boolean {
  const check = CHECKS[type];
  return check !== undefined && check(bytes);
}
