import type { Response } from 'express';

/** One cell's value as it leaves the database: text, a number, a yes/no, or nothing. */
export type CsvValue = string | number | boolean | null | undefined;

/** A column of an export: its heading and how a row gives its cell. */
export interface CsvColumn<T> {
  heading: string;
  value: (row: T) => CsvValue;
}

// A cell a spreadsheet would run as a formula (=, +, -, @, a tab or a carriage return first) is
// written with a leading apostrophe: a name typed as `=HYPERLINK(...)` stays text (OWASP's advice).
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell, quoted when it holds a comma, a quote or a line break (RFC 4180); a quote inside is doubled. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line of cells, ended by CRLF as RFC 4180 says. */
export const csvLine = (cells: readonly CsvValue[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Until the response can take more (`drain`) or is gone (`close`): both listeners go when either
 * comes. (A `once` of each left the other behind at every wait: 11 waits on one download and Node
 * warned of a listener leak, MaxListenersExceededWarning, as the history bench's 8 downloads did.)
 */
const writable = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/** The other requests' turn: the next batch is read after what is waiting on the event loop (a turn of I/O included). */
const othersTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Sends what is written so far: the compression middleware (bff/app.ts) otherwise holds it until
 * its buffer fills, so the first bytes of an export waited for many batches to be read.
 */
const sendNow = (res: Response) => (res as Response & { flush?: () => void }).flush?.();

/**
 * Streams a CSV attachment: the headings at once, then each batch of rows as it is read (each sent
 * on, compressed or not), so an export of every row never holds more than a batch in memory. Between
 * batches the other requests take their turn (an export of two years does not hold up the desk's
 * pages), and the rows wait while the client reads slower than they come. UTF-8 with a byte-order
 * mark, so a spreadsheet reads names such as "Zoë Ørsted" as written. A client gone mid-way stops
 * the reading (no further batch is read).
 */
export async function sendCsv<T>(res: Response, filename: string, columns: readonly CsvColumn<T>[], batches: AsyncIterable<readonly T[]>): Promise<void> {
  res.status(200);
  res.type('text/csv; charset=utf-8');
  res.attachment(filename);
  res.setHeader('Cache-Control', 'no-store');
  res.write(`\uFEFF${csvLine(columns.map((c) => c.heading))}`);
  sendNow(res);
  for await (const rows of batches) {
    if (res.destroyed) return; // leaving the loop ends the reading of batches
    const text = rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join('');
    const more = res.write(text);
    sendNow(res);
    if (!more) await writable(res);
    else await othersTurn();
    if (res.destroyed) return;
  }
  res.end();
}

/** Every row of a keyset-paged read, a batch at a time: `readAfter(last)` answers the rows after the last one given (none at first). */
export async function* inBatches<T>(readAfter: (last: T | undefined) => Promise<readonly T[]>, batchSize: number): AsyncIterable<readonly T[]> {
  let last: T | undefined;
  for (;;) {
    const rows = await readAfter(last);
    if (rows.length > 0) yield rows;
    if (rows.length < batchSize) return;
    last = rows[rows.length - 1];
  }
}
