import { DEFAULT_ALLOWED_TYPES } from '../../contracts/uploads.contract';
import { bytesMatchType, SNIFF_BYTES } from './sniff';

const bytes = (...parts: (string | number[] | Buffer)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));
/** Some bytes after a signature, as a real file has. */
const rest = Buffer.from(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256));

const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The beginning of a real file of each accepted type. */
const REAL: Record<string, Buffer[]> = {
  'image/png': [bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR', rest)],
  'image/jpeg': [bytes([0xff, 0xd8, 0xff, 0xe0], [0, 16], 'JFIF\0', rest), bytes([0xff, 0xd8, 0xff, 0xe1], [0, 16], 'Exif\0\0', rest)],
  'image/gif': [bytes('GIF89a', rest), bytes('GIF87a', rest)],
  'image/webp': [bytes('RIFF', [0x24, 0x10, 0, 0], 'WEBPVP8 ', rest)],
  'application/pdf': [bytes('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', rest)],
  'text/csv': [Buffer.from('name,price\nCafé crème,3.50\n"Smith, J",12\n', 'utf8')],
  'text/plain': [Buffer.from('Opening hours: 6–22 every day. 🏋️\n', 'utf8'), Buffer.alloc(0)],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': [bytes(ZIP, [0x14, 0, 0x06, 0], '[Content_Types].xml', rest)],
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': [bytes(ZIP, [0x14, 0, 0x06, 0], '[Content_Types].xml', rest)],
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': [bytes(ZIP, [0x14, 0, 0x06, 0], '[Content_Types].xml', rest)],
  'application/vnd.oasis.opendocument.text': [bytes(ZIP, [0x0a, 0, 0, 0], 'mimetypeapplication/vnd.oasis.opendocument.text', rest)],
  'application/vnd.oasis.opendocument.spreadsheet': [bytes(ZIP, [0x0a, 0, 0, 0], 'mimetypeapplication/vnd.oasis.opendocument.spreadsheet', rest)],
  'application/msword': [bytes(OLE, rest)],
  'application/vnd.ms-excel': [bytes(OLE, rest)],
};

/** What an attacker (or a mislabelled file) might send instead. */
const IMPOSTORS = {
  html: Buffer.from('<!doctype html><script>alert(document.cookie)</script>', 'utf8'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'utf8'),
  exe: bytes('MZ', [0x90, 0, 3, 0, 0, 0, 4, 0], rest),
  elf: bytes([0x7f], 'ELF', [2, 1, 1, 0], rest),
};

describe('every accepted type', () => {
  it('has a check for each type the server may accept', () => {
    for (const type of Object.keys(DEFAULT_ALLOWED_TYPES)) expect(REAL[type]).toBeDefined();
  });

  it.each(Object.entries(REAL))('accepts a real %s', (type, samples) => {
    for (const sample of samples) expect(bytesMatchType(type, sample)).toBe(true);
  });

  it.each(Object.entries(REAL).filter(([type]) => !type.startsWith('text/')))('refuses an empty file, HTML, an executable and a few bytes short of the signature as %s', (type, [sample]) => {
    expect(bytesMatchType(type, Buffer.alloc(0))).toBe(false);
    for (const impostor of Object.values(IMPOSTORS)) expect(bytesMatchType(type, impostor)).toBe(false);
    expect(bytesMatchType(type, sample!.subarray(1))).toBe(false); // shifted by one byte
  });
});

describe('bytes that do not match the claimed type', () => {
  it('refuses a PNG that claims to be a JPEG, a PDF that claims to be a PNG, a GIF that claims to be WebP', () => {
    expect(bytesMatchType('image/jpeg', REAL['image/png']![0]!)).toBe(false);
    expect(bytesMatchType('image/png', REAL['application/pdf']![0]!)).toBe(false);
    expect(bytesMatchType('image/webp', REAL['image/gif']![0]!)).toBe(false);
    expect(bytesMatchType('application/pdf', REAL['application/msword']![0]!)).toBe(false);
    expect(bytesMatchType('application/msword', REAL['application/vnd.oasis.opendocument.text']![0]!)).toBe(false);
    expect(bytesMatchType('application/vnd.openxmlformats-officedocument.wordprocessingml.document', REAL['application/vnd.ms-excel']![0]!)).toBe(false);
  });

  it('refuses a RIFF file that is not WebP (a WAV sound)', () => {
    expect(bytesMatchType('image/webp', bytes('RIFF', [0x24, 0x10, 0, 0], 'WAVEfmt ', rest))).toBe(false);
  });

  it('refuses a GIF with an unknown version', () => {
    expect(bytesMatchType('image/gif', bytes('GIF90a', rest))).toBe(false);
  });

  it('refuses binary files that claim to be text', () => {
    for (const type of ['text/plain', 'text/csv']) {
      expect(bytesMatchType(type, REAL['image/png']![0]!)).toBe(false);
      expect(bytesMatchType(type, IMPOSTORS.exe)).toBe(false);
      expect(bytesMatchType(type, REAL['application/msword']![0]!)).toBe(false);
    }
  });

  it('accepts nothing for a type the server does not know, however the bytes look', () => {
    expect(bytesMatchType('text/html', IMPOSTORS.html)).toBe(false);
    expect(bytesMatchType('image/svg+xml', IMPOSTORS.svg)).toBe(false);
    expect(bytesMatchType('IMAGE/PNG', REAL['image/png']![0]!)).toBe(false);
    expect(bytesMatchType('', Buffer.alloc(0))).toBe(false);
  });
});

describe('text', () => {
  it('refuses text with a NUL byte anywhere in the sample', () => {
    expect(bytesMatchType('text/plain', Buffer.from('plain text\0with a NUL', 'utf8'))).toBe(false);
    expect(bytesMatchType('text/csv', Buffer.from('a,b\n1,2\n\0', 'utf8'))).toBe(false);
    // UTF-16 text is full of NUL bytes: not the UTF-8 the page shows.
    expect(bytesMatchType('text/plain', Buffer.from('\ufeffhello', 'utf16le'))).toBe(false);
  });

  it('refuses bytes that are not UTF-8 (Latin-1 accents, a stray continuation byte, an overlong form)', () => {
    expect(bytesMatchType('text/plain', Buffer.from('caf\xe9 au lait, cr\xe8me br\xfbl\xe9e', 'latin1'))).toBe(false);
    expect(bytesMatchType('text/plain', bytes('ok ', [0x80], ' not ok'))).toBe(false);
    expect(bytesMatchType('text/plain', bytes('slash ', [0xc0, 0xaf], ' overlong'))).toBe(false);
  });

  it('accepts a sample cut in the middle of a character (the rest of it is past the sample)', () => {
    const text = Buffer.from(`${'x'.repeat(SNIFF_BYTES - 2)}€ and more`, 'utf8'); // € is three bytes
    const sample = text.subarray(0, SNIFF_BYTES); // two of its three bytes
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(sample)).toThrow();
    expect(bytesMatchType('text/plain', sample)).toBe(true);
    for (const emoji of ['😀', 'é']) {
      const encoded = Buffer.from(`menu ${emoji}`, 'utf8');
      for (let cut = 1; cut < Buffer.byteLength(emoji); cut++) expect(bytesMatchType('text/csv', encoded.subarray(0, encoded.length - cut))).toBe(true);
    }
  });

  it('still refuses an invalid sequence just before the end of the sample', () => {
    // A lone continuation byte followed by a complete character is not a character cut in half.
    expect(bytesMatchType('text/plain', bytes('abc', [0x80], 'd'))).toBe(false);
    expect(bytesMatchType('text/plain', bytes('abc', [0xff]))).toBe(false);
    expect(bytesMatchType('text/plain', bytes('abc', [0xe2, 0x28]))).toBe(false); // a three-byte start, then no continuation
    expect(bytesMatchType('text/csv', bytes('a,b', [0xf8]))).toBe(false); // never a UTF-8 lead byte
  });
});
