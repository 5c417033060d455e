import { DEFAULT_ALLOWED_TYPES } from '@contracts/uploads.contract';
import { acceptAttribute, checkBatch, checkFile, formatTimeLeft, kindOf } from './upload-rules';
import { LIMITS, MB } from '@/test-support/uploads.fake-api';

const file = (name: string, size: number, type = '') => ({ name, size, type });

describe('formatTimeLeft', () => {
  it.each([
    [0.2, 'about 1 s'],
    [42, 'about 42 s'],
    [150, 'about 3 min'],
    [3600, 'about 1 h'],
    [4800, 'about 1 h 20 min'],
  ])('%d s is “%s”', (seconds, words) => expect(formatTimeLeft(seconds)).toBe(words));
});

describe('checkFile', () => {
  it('sends a file as the allowed type its extension names, whatever generic type the browser gave', () => {
    expect(checkFile(file('Photo.JPG', 10, ''), LIMITS)).toEqual({ ok: true, type: 'image/jpeg' });
    expect(checkFile(file('menu.csv', 10, 'application/vnd.ms-excel'), LIMITS)).toEqual({ ok: true, type: 'text/csv' });
    expect(checkFile(file('readme.md', 10, 'text/markdown'), LIMITS)).toEqual({ ok: true, type: 'text/plain' });
    expect(checkFile(file('data.bin.pdf', 10, 'application/octet-stream'), LIMITS)).toEqual({ ok: true, type: 'application/pdf' });
  });

  it('refuses empty files, unknown or missing extensions, a type of another kind, and files over the limit', () => {
    expect(checkFile(file('a.pdf', 0), LIMITS)).toMatchObject({ ok: false, reason: 'This file is empty: there is nothing to upload.' });
    expect(checkFile(file('Makefile', 10), LIMITS)).toMatchObject({ ok: false, reason: expect.stringMatching(/^This file has no extension/) });
    expect(checkFile(file('.env', 10), LIMITS)).toMatchObject({ ok: false, reason: expect.stringMatching(/^This file has no extension/) });
    expect(checkFile(file('tool.exe', 10, 'application/x-msdownload'), LIMITS)).toMatchObject({ ok: false, reason: expect.stringMatching(/^\.exe files are not accepted\. Accepted: PNG, JPG/) });
    expect(checkFile(file('clip.png', 10, 'video/mp4'), LIMITS)).toMatchObject({ ok: false, reason: 'The file says it is video/mp4, which is not what a .png file holds.' });
    expect(checkFile(file('big.pdf', 312 * MB), LIMITS)).toMatchObject({ ok: false, reason: 'This file is 312 MB; the limit is 250 MB per file.' });
    expect(checkFile(file('edge.pdf', 250 * MB), LIMITS)).toMatchObject({ ok: true });
  });
});

describe('checkBatch', () => {
  const limits = { ...LIMITS, maxBatchFiles: 2, maxBatchBytes: 10 * MB, quotaBytes: 100 * MB, usedBytes: 80 * MB };

  it('keeps the first files that fit and refuses the rest, naming the limit', () => {
    const decisions = checkBatch([file('bad.exe', 1), file('a.pdf', 4 * MB), file('b.pdf', 7 * MB), file('c.pdf', 5 * MB), file('d.pdf', 1)], limits);
    expect(decisions.map((d) => (d.ok ? 'ok' : d.reason))).toEqual([
      expect.stringMatching(/^\.exe files are not accepted/),
      'ok',
      'It would bring this batch to 11 MB; at most 10 MB can go at once.',
      'ok',
      'At most 2 files can go at once: add this one again when the others are done.',
    ]);
  });

  it('counts what the page has queued but the server does not know of yet against the free space', () => {
    expect(checkBatch([file('a.pdf', 6 * MB)], limits, { uncountedBytes: 15 * MB })[0]).toMatchObject({ ok: false, reason: 'It does not fit in your space: 5 MB of 100 MB is free. Delete some files first.' });
  });

  it('skips the batch limits for a file sent on its own', () => {
    expect(checkBatch([file('a.pdf', 12 * MB)], limits, { batch: false })[0]).toMatchObject({ ok: true });
  });
});

it('offers the picker every allowed type and extension, and names stored types by extension', () => {
  expect(acceptAttribute({ allowedTypes: { 'image/png': ['png'], 'text/plain': ['txt', 'md'] } })).toBe('image/png,text/plain,.png,.txt,.md');
  expect(kindOf('application/pdf', { allowedTypes: DEFAULT_ALLOWED_TYPES as Record<string, string[]> })).toBe('PDF');
  expect(kindOf('application/zip', { allowedTypes: {} })).toBe('application/zip');
});
