import { runGymBench } from './gym.bench';

// Each benchmark prints its figures and ratios against DESIGN §11; none of them is a test.
const benches: Array<[string, () => Promise<void>]> = [['gym', runGymBench]];

const only = process.argv[2];
for (const [name, run] of benches) {
  if (only && only !== name) continue;
  await run();
}
