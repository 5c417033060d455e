import { describeProgress, importProgressReporter } from './catalogue-import-progress';
import type { FileReport } from './catalogue.importer';

const report = (over: Partial<FileReport> = {}): FileReport => ({ file: 'inventory_parts.csv', rows: 1_000_000, bad: 0, badRows: [], seconds: 10, ...over });

/** What a reporter wrote, and a clock the test moves. */
function reporterOn(isTTY: boolean) {
  const written: string[] = [];
  let at = 0;
  const reporter = importProgressReporter({ isTTY, write: (text) => written.push(text) }, () => at);
  return { reporter, written, tick: (ms: number) => (at += ms) };
}

describe('the import progress', () => {
  it('says the rows, the rate and the time left from how far into the file it is', () => {
    const line = describeProgress({ file: 'inventory_parts.csv', rows: 250_000, bytesRead: 25, bytes: 100, seconds: 5 });
    expect(line).toBe('inventory_parts.csv: 250,000 rows, 50,000 rows/s, about 15 s left');
    expect(describeProgress({ file: 'sets.csv', rows: 10_000, bytesRead: 10, bytes: 100, seconds: 20 })).toBe('sets.csv: 10,000 rows, 500 rows/s, about 3 min 00 s left');
    // No rate yet to go by: no guess.
    expect(describeProgress({ file: 'sets.csv', rows: 0, bytesRead: 0, bytes: 100, seconds: 0 })).toBe('sets.csv: 0 rows');
  });

  it('on a terminal rewrites one line per file in place, then leaves the file’s result on it', () => {
    const { reporter, written, tick } = reporterOn(true);
    reporter.onProgress({ file: 'inventory_parts.csv', rows: 100_000, bytesRead: 10, bytes: 100, seconds: 1 });
    tick(1_000);
    reporter.onProgress({ file: 'inventory_parts.csv', rows: 200_000, bytesRead: 20, bytes: 100, seconds: 2 });
    reporter.onProgress({ file: 'inventory_parts.csv', rows: 1_000_000, bytesRead: 100, bytes: 100, seconds: 9, finishing: true });
    reporter.onFileDone(report({ bad: 3 }));
    // A shorter line is padded so nothing of the longer one before it is left showing.
    for (let i = 1; i < 4; i++) expect(written[i]!.length).toBeGreaterThanOrEqual(written[i - 1]!.trimEnd().length);
    expect(written.map((text) => text.trimEnd())).toEqual([
      '\rinventory_parts.csv: 100,000 rows, 100,000 rows/s, about 9 s left',
      '\rinventory_parts.csv: 200,000 rows, 100,000 rows/s, about 8 s left',
      '\rinventory_parts.csv: 1,000,000 rows read, finishing…',
      '\rinventory_parts.csv: 1,000,000 rows in 10.0 s (100,000 rows/s), 3 skipped',
      '',
    ]);
  });

  it('in a log writes a plain line every few seconds and the result, never a carriage return', () => {
    const { reporter, written, tick } = reporterOn(false);
    for (let n = 1; n <= 12; n++) {
      tick(1_000);
      reporter.onProgress({ file: 'inventory_parts.csv', rows: n * 10_000, bytesRead: n, bytes: 12, seconds: n });
    }
    reporter.onProgress({ file: 'inventory_parts.csv', rows: 120_000, bytesRead: 12, bytes: 12, seconds: 12, finishing: true });
    reporter.onFileDone(report());
    expect(written.join('')).not.toContain('\r');
    expect(written.join('').trim().split('\n')).toEqual([
      'inventory_parts.csv: 60,000 rows, 10,000 rows/s, about 6 s left',
      'inventory_parts.csv: 110,000 rows, 10,000 rows/s, about 1 s left',
      'inventory_parts.csv: 120,000 rows read, finishing…',
      'inventory_parts.csv: 1,000,000 rows in 10.0 s (100,000 rows/s)',
    ]);
  });
});
