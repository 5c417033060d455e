import { runBackupBench } from './backup.bench';
import { runCatalogueBench } from './catalogue.bench';
import { runChatBench } from './chat.bench';
import os from 'node:os';
import { thisRun, writeSection, PERFORMANCE_FILE, type BenchRun, type BenchSection } from './figures';
import { runGymBench } from './gym.bench';
import { runHistoryBench } from './history.bench';
import { runKisiProxyBench } from './kisi-proxy.bench';
import { runLighthouseBench } from './lighthouse.bench';
import { runListsBench } from './lists.bench';
import { runOrdersBench } from './orders.bench';
import { runRevisitBench } from './revisit.bench';
import { runRushBench } from './rush.bench';
import { runScaleBench } from './scale.bench';
import { runSizeBench } from './size.bench';
import { runSoakBench } from './soak.bench';
import { runUploadsBench } from './uploads.bench';

// Each benchmark prints its figures and ratios against the targets in docs/ARCHITECTURE.md "Tests and quality bars"; none of them is a test.
// `npm run bench -- <name> [<name>…]` runs those; `--write` also puts each one's headline figures in docs/performance.md.
type Bench = BenchSection & { run: BenchRun };

const bench = (name: string, title: string, run: BenchRun, needsBuild = false): Bench => ({
  name,
  title,
  run,
  command: `${needsBuild ? 'npm run build && ' : ''}npm run bench -- --write ${name}`,
});

const benches: Bench[] = [
  bench('size', 'JavaScript each route loads until idle', runSizeBench, true),
  bench('lighthouse', 'every route on a phone (Lighthouse 12, mobile, median of 3)', runLighthouseBench, true),
  bench('revisit', 'a cached revisit of the members list in Chromium', runRevisitBench, true),
  bench('gym', 'the status route and the members list against bare Express', runGymBench),
  bench('lists', 'every list endpoint at 50 connections', runListsBench),
  bench('kisi', 'the Kisi proxy against calling Kisi directly', runKisiProxyBench),
  bench('scale', 'one and two instances on PostgreSQL, SQLite beside them', runScaleBench),
  bench('orders', 'food-court orders against a bare JSON POST', runOrdersBench),
  bench('rush', 'a lunch rush: 10 orders/s to the board, five stall screens and every diner', runRushBench),
  bench('chat', 'staff chat fan-out to 200 event streams', runChatBench),
  bench('uploads', 'a 200 MB upload over tus against a disk copy', runUploadsBench),
  bench('catalogue', "the catalogue at Rebrickable's size", runCatalogueBench),
  bench('soak', 'twenty minutes of mixed use: memory', runSoakBench),
  bench('backup', 'two years of history backed up while serving, checked and restored, both engines', runBackupBench),
  bench('history', 'every read of the history, seeded and after two years of a busy venue, both engines', runHistoryBench),
];

const args = process.argv.slice(2);
const write = args.includes('--write');
const flags = args.filter((a) => a.startsWith('--') && a !== '--write');
const names = args.filter((a) => !a.startsWith('--'));
const unknown = names.filter((name) => !benches.some((b) => b.name === name));
if (flags.length > 0 || unknown.length > 0) {
  console.error(`Unknown ${flags.length > 0 ? `option ${flags[0]}` : `benchmark "${unknown[0]}"`}. Usage: npm run bench -- [--write] [${benches.map((b) => b.name).join('|')} …]`);
  process.exit(2);
}
for (const b of benches) {
  if (names.length > 0 && !names.includes(b.name)) continue;
  const loadBefore = os.loadavg()[0]!;
  const figures = await b.run();
  // Written as each bench ends, so a later bench that fails loses nothing already measured.
  if (write) {
    writeSection(b, figures, thisRun(loadBefore), benches);
    console.log(`  (${b.name}: ${figures.length} figures written to ${PERFORMANCE_FILE})`);
  }
}
