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
 * Streams a CSV attachment: the headings, then each batch of rows as it is read, so an export of
 * every row never holds them all in memory. UTF-8 with a byte-order mark, so a spreadsheet reads
 * names such as "Zoë Ørsted" as written. A client gone mid-way stops the reading.
 */
export async function sendCsv<T>(res: Response, filename: string, columns: readonly CsvColumn<T>[], batches: AsyncIterable<readonly T[]>): Promise<void> {
  res.status(200);
  res.type('text/csv; charset=utf-8');
  res.attachment(filename);
  res.setHeader('Cache-Control', 'no-store');
  res.write(`\uFEFF${csvLine(columns.map((c) => c.heading))}`);
  for await (const rows of batches) {
    if (res.destroyed) return;
    const text = rows.map((row) => csvLine(columns.map((c) => c.value(row)))).join('');
    if (!res.write(text)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
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
