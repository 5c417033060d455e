import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { standInClient } from '../bff/test-support/spawn-bff';
import { BENCH_ADMIN, seedGymMembers, signIn } from './bench-fixtures';
import { fmt, interleaved, ratio, startChildServer } from './load';

const MEMBERS = 10_000;
const SECONDS = 5;
const ROUNDS = 2;

/** docs/ARCHITECTURE.md "Tests and quality bars": GET /api/gym/users?page=0 with 10,000 members against a bare Express route; p99 at 50 connections. */
export async function runGymBench(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-bench-'));
  const DATABASE_URL = `file:${path.join(dir, 'bench.db')}`;
  await seedGymMembers(DATABASE_URL, MEMBERS);

  const bff = await startChildServer('bff/index.ts', {
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL, ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, STATIC_DIR: standInClient(dir),
  });
  const bare = await startChildServer('bench/bare-express.server.ts', {});
  try {
    const cookie = await signIn(bff.url);
    const url = `${bff.url}/api/gym/users?page=0`;
    const check = await fetch(url, { headers: { cookie } });
    const page = (await check.json()) as { total: number };
    if (!check.ok || page.total < MEMBERS) throw new Error(`gym bench setup failed: ${check.status}, total ${page.total}`);

    const { baseline, gym } = await interleaved(
      { baseline: { url: `${bare.url}/hello` }, gym: { url, headers: { cookie } } },
      { connections: 50, durationSeconds: SECONDS, rounds: ROUNDS },
    );

    const r = ratio(gym.requestsPerSecond, baseline.requestsPerSecond);
    console.log(`\nGym members list (${fmt(page.total)} members, 50 connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, server in its own process)`);
    console.log(`  bare Express hello        ${fmt(baseline.requestsPerSecond)} req/s, p99 ${baseline.p99Ms} ms`);
    console.log(`  GET /api/gym/users?page=0 ${fmt(gym.requestsPerSecond)} req/s, p99 ${gym.p99Ms} ms, non-2xx ${gym.non2xx}`);
    console.log(`  ratio ${fmt(r, 2)} (target >= 0.50) ${r >= 0.5 ? 'OK' : 'BELOW TARGET'}; p99 ${gym.p99Ms} ms (target < 50 ms) ${gym.p99Ms < 50 ? 'OK' : 'ABOVE TARGET'}`);
  } finally {
    await Promise.all([bare.stop(), bff.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
