import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

/**
 * `npm run test:e2e`: builds the SPA when dist/ is missing, then runs every e2e/*.e2e.ts with Node's
 * test runner, three files at a time (each file starts its own server and browser; most of a browser
 * test is waiting: on two cores three took 372 s where two took 402 s). The TAP reporter
 * ends with the `# pass N` / `# fail N` lines CI reads.
 */
if (!existsSync('dist/client/index.html')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/**
 * The longest files first (a CI run's durations, longest first), the rest by name: with three at a
 * time, a long file started last would run alone at the end while the other slots stand idle.
 */
const LONGEST_FIRST = ['a11y-staff', 'a11y-visitor', 'messaging', 'gym', 'roles', 'food-court', 'kisi', 'keyboard', 'samples'];
const rank = (file: string) => {
  const at = LONGEST_FIRST.indexOf(file.replace(/\.e2e\.ts$/, ''));
  return at === -1 ? LONGEST_FIRST.length : at;
};

const only = process.argv.slice(2);
const files = readdirSync('e2e')
  .filter((f) => f.endsWith('.e2e.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  .map((f) => `e2e/${f}`);

const run = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-reporter=tap', ...files], {
  stdio: 'inherit',
});
process.exit(run.status ?? 1);
