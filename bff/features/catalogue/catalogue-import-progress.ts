import type { FileReport, ImportProgress } from './catalogue.importer';

/** A plain line at most this often when the output is not a terminal (a log, a CI run). */
const PLAIN_EVERY_MS = 5_000;

const count = (n: number) => Math.round(n).toLocaleString('en');
const duration = (seconds: number) => {
  const whole = Math.max(1, Math.round(seconds));
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${String(whole % 60).padStart(2, '0')} s`;
};

/** "inventory_parts.csv: 412,000 rows, 96,300 rows/s, about 6 s left" (no time left until there is a rate to go by). */
export function describeProgress(progress: ImportProgress): string {
  const { seconds } = progress;
  if (progress.finishing) return `${progress.file}: ${count(progress.rows)} rows read, finishing…`;
  const rate = seconds > 0 ? progress.rows / seconds : 0;
  const done = progress.bytes > 0 ? progress.bytesRead / progress.bytes : 0;
  const left = done > 0 && done < 1 && seconds >= 0.5 ? `, about ${duration((seconds * (1 - done)) / done)} left` : '';
  return `${progress.file}: ${count(progress.rows)} rows${rate > 0 ? `, ${count(rate)} rows/s` : ''}${left}`;
}

/** "inventory_parts.csv: 1,012,544 rows in 10.5 s (96,432 rows/s), 3 skipped" */
export function describeFileDone(report: FileReport): string {
  const rate = report.seconds > 0 ? `${count(report.rows / report.seconds)} rows/s` : '–';
  return `${report.file}: ${count(report.rows)} rows in ${report.seconds.toFixed(1)} s (${rate})${report.bad ? `, ${report.bad} skipped` : ''}`;
}

interface Output {
  write: (text: string) => unknown;
  isTTY?: boolean;
}

/**
 * How an import tells its progress: on a terminal one line per file, rewritten in place as the rows
 * come, then left as the file's result; elsewhere (a log) a plain line now and then and the result.
 */
export function importProgressReporter(out: Output, now: () => number = Date.now) {
  let file: string | undefined;
  let lastPlainAt = 0;
  let width = 0;
  const rewrite = (line: string) => {
    out.write(`\r${line.padEnd(width)}`);
    width = line.length;
  };
  return {
    onProgress(progress: ImportProgress) {
      if (progress.file !== file) {
        file = progress.file;
        lastPlainAt = now();
        width = 0;
      }
      const line = describeProgress(progress);
      if (out.isTTY) rewrite(line);
      // A file that took a while says when its rows are read: what follows may take a while too.
      else if (now() - lastPlainAt >= PLAIN_EVERY_MS || (progress.finishing && progress.seconds * 1000 >= PLAIN_EVERY_MS)) {
        lastPlainAt = now();
        out.write(`${line}\n`);
      }
    },
    onFileDone(report: FileReport) {
      const line = describeFileDone(report);
      if (out.isTTY && file === report.file) rewrite(line);
      else out.write(line);
      out.write('\n');
      file = undefined;
    },
  };
}
