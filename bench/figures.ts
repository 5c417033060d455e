import fs from 'node:fs';
import os from 'node:os';
import { fmt } from './load';

/**
 * One headline figure of a benchmark: what `npm run bench -- --write` puts in docs/performance.md.
 * A bench returns its figures beside what it prints; the printout keeps the detail.
 */
export interface Figure {
  /** What was measured, as a reader of docs/performance.md needs it named. */
  name: string;
  figure: number;
  /** `kB`, `ms`, `req/s`, `×` (a ratio), '' (a count), … */
  unit: string;
  /** The quality bar as written (`≤ 1.15`, `< 50 ms`); none for a figure given for information. */
  target?: string;
  /** Whether `figure` meets `target`; undefined without one. */
  met?: boolean;
  /** Decimals to show (default: 0 from 100 up, 1 from 10 up, else 2). */
  digits?: number;
}

export type BenchRun = () => Promise<Figure[]>;

/** A figure given for information (no target). */
export const info = (name: string, figure: number, unit: string, digits?: number): Figure => ({ name, figure, unit, digits });

/** A figure against its quality bar. */
export const bar = (name: string, figure: number, unit: string, target: string, met: boolean, digits?: number): Figure => ({ name, figure, unit, target, met, digits });

export const PERFORMANCE_FILE = 'docs/performance.md';

/**
 * The machine a run was on: CPU model and count, memory, Node, the date (UTC), and how busy the
 * machine already was (the 1-minute load average when the bench started): on a shared machine that
 * decides much of a figure.
 */
export function thisRun(loadBefore: number, at = new Date()): string {
  const cpus = os.cpus();
  const model = cpus[0]?.model.trim().replace(/\s+/g, ' ') ?? 'unknown CPU';
  const memory = `${fmt(os.totalmem() / 1024 ** 3, 1)} GiB`;
  const busy = loadBefore >= cpus.length ? ' (other work shared the machine: timings run slower than on an idle one)' : '';
  return `${at.toISOString().slice(0, 10)} on ${model} × ${cpus.length}, ${memory} memory, Node ${process.version} (${os.platform()} ${os.arch()}); load average ${fmt(loadBefore, 1)} when it started${busy}`;
}

const digitsFor = (f: Figure) => f.digits ?? (Math.abs(f.figure) >= 100 ? 0 : Math.abs(f.figure) >= 10 ? 1 : 2);
const cell = (text: string) => text.replace(/\|/g, '\\|');
const valueOf = (f: Figure) => (f.unit === '' || f.unit === '×' ? fmt(f.figure, digitsFor(f)) : `${fmt(f.figure, digitsFor(f))} ${f.unit}`);

const begin = (name: string) => `<!-- bench:${name} -->`;
const end = (name: string) => `<!-- /bench:${name} -->`;

export interface BenchSection {
  name: string;
  title: string;
  /** How to take the figures again. */
  command: string;
}

/** A bench's section of docs/performance.md, its markers included. */
export function section(bench: BenchSection, written?: { figures: readonly Figure[]; run: string }): string {
  const lines = [begin(bench.name), `## ${bench.name}: ${bench.title}`, ''];
  if (!written) {
    lines.push(`Not yet written by this run — run \`npm run bench -- --write ${bench.name}\`.`);
  } else {
    const { figures, run } = written;
    lines.push(`Measured ${run}. Command: \`${bench.command}\`.`, '');
    lines.push('| figure | value | target | met |', '|---|--:|---|---|');
    for (const f of figures) {
      const met = f.met === undefined ? '' : f.met ? 'yes' : '**no**';
      lines.push(`| ${cell(f.name)} | ${valueOf(f)} | ${f.target ?? ''} | ${met} |`);
    }
  }
  lines.push(end(bench.name));
  return lines.join('\n');
}

const HEADER = `# Performance

The current figure of every quality bar, each section written by \`npm run bench -- --write <name>\`
(not by hand) with the date, machine and command it was taken with. A run rewrites the sections of the
benches it ran and keeps the others. What each bench measures and why the targets are what they are:
[ARCHITECTURE.md "Tests and quality bars"](ARCHITECTURE.md#tests-and-quality-bars) and
[the decisions](decisions/README.md). Figures from different days or machines do not compare.
`;

/**
 * Rewrites `bench`'s marked section of the file (created, with a placeholder for every bench in
 * `all`, when it does not exist yet); other sections stay as they are. A section the file lacks is
 * added at the end.
 */
export function writeSection(bench: BenchSection, figures: readonly Figure[], run: string, all: readonly BenchSection[], file = PERFORMANCE_FILE): void {
  let text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : `${HEADER}\n${all.map((b) => section(b)).join('\n\n')}\n`;
  const fresh = section(bench, { figures, run });
  const from = text.indexOf(begin(bench.name));
  const to = text.indexOf(end(bench.name));
  if (from >= 0 && to > from) text = text.slice(0, from) + fresh + text.slice(to + end(bench.name).length);
  else text = `${text.trimEnd()}\n\n${fresh}\n`;
  fs.writeFileSync(file, text);
}
