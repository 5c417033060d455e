import { runCatalogueBench } from './catalogue.bench';
import { runChatBench } from './chat.bench';
import { runGymBench } from './gym.bench';
import { runKisiProxyBench } from './kisi-proxy.bench';
import { runListsBench } from './lists.bench';
import { runOrdersBench } from './orders.bench';
import { runRevisitBench } from './revisit.bench';
import { runScaleBench } from './scale.bench';
import { runSizeBench } from './size.bench';
import { runUploadsBench } from './uploads.bench';

// Each benchmark prints its figures and ratios against the targets in docs/ARCHITECTURE.md "Tests and quality bars"; none of them is a test.
// `npm run bench -- <name>` runs one of them.
const benches: Array<[string, () => Promise<void>]> = [
  ['size', runSizeBench],
  ['revisit', runRevisitBench],
  ['gym', runGymBench],
  ['lists', runListsBench],
  ['kisi', runKisiProxyBench],
  ['scale', runScaleBench],
  ['orders', runOrdersBench],
  ['chat', runChatBench],
  ['uploads', runUploadsBench],
  ['catalogue', runCatalogueBench],
];

const only = process.argv[2];
if (only && !benches.some(([name]) => name === only)) {
  console.error(`Unknown benchmark "${only}". Choose one of: ${benches.map(([name]) => name).join(', ')}.`);
  process.exit(2);
}
for (const [name, run] of benches) {
  if (only && only !== name) continue;
  await run();
}
