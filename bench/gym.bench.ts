import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { standInClient } from '../bff/test-support/spawn-bff';
import { BENCH_ADMIN, seedGymMembers, signIn } from './bench-fixtures';
import { bar, info, type Figure } from './figures';
import { fmt, load, ratio, startChildServer, type ChildServer } from './load';
import * as cpu from './proc-cpu';

const MEMBERS = 10_000;
const SECONDS = 5;
const ROUNDS = 2;
const CONNECTIONS = 50;

interface Row {
  label: string;
  server: ChildServer;
  url: string;
  headers?: Record<string, string>;
}

interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** The server process's CPU per request: what a route costs, less shaken by the load generator sharing the machine than req/s. */
  cpuUsPerRequest: number;
}

/** Each row in turn, `ROUNDS` times over (a burst of noise then lands on every row alike); req/s and p50 averaged, p99 the worst round. */
async function measure(rows: Row[]): Promise<Figures[]> {
  const runs = rows.map(() => [] as Figures[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, row] of rows.entries()) {
      const before = cpu.processCpuSeconds(row.server.pid);
      const result = await load(row.url, { connections: CONNECTIONS, durationSeconds: SECONDS, headers: row.headers });
      const seconds = cpu.processCpuSeconds(row.server.pid) - before;
      // load() warms up for 1 s before its measured run; both count in the CPU read.
      const requests = result.requestsPerSecond * (SECONDS + 1);
      runs[i]!.push({ ...result, cpuUsPerRequest: requests > 0 ? (seconds * 1e6) / requests : 0 });
    }
  }
  const mean = (list: Figures[], key: keyof Figures) => list.reduce((sum, r) => sum + r[key], 0) / list.length;
  return runs.map((list) => ({
    requestsPerSecond: mean(list, 'requestsPerSecond'),
    p50Ms: mean(list, 'p50Ms'),
    p99Ms: Math.max(...list.map((r) => r.p99Ms)),
    non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
    cpuUsPerRequest: mean(list, 'cpuUsPerRequest'),
  }));
}

/**
 * docs/ARCHITECTURE.md "Tests and quality bars": the BFF's hot paths against a bare Express hello
 * route in the same run — the status route (no database) and GET /api/gym/users?page=0 over 10,000
 * members — at 50 connections, each server in its own process; one table with req/s, the ratio to
 * bare Express, p50/p99, the server's CPU per request and the BFF's memory.
 */
export async function runGymBench(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-bench-'));
  const DATABASE_URL = `file:${path.join(dir, 'bench.db')}`;
  await seedGymMembers(DATABASE_URL, MEMBERS);

  const bff = await startChildServer('bff/index.ts', {
    PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL, ADMIN_EMAIL: BENCH_ADMIN.email, ADMIN_PASSWORD: BENCH_ADMIN.password, STATIC_DIR: standInClient(dir),
  });
  const bare = await startChildServer('bench/bare-express.server.ts', {});
  try {
    const cookie = await signIn(bff.url);
    const membersUrl = `${bff.url}/api/gym/users?page=0`;
    const check = await fetch(membersUrl, { headers: { cookie } });
    const page = (await check.json()) as { total: number };
    if (!check.ok || page.total < MEMBERS) throw new Error(`gym bench setup failed: ${check.status}, total ${page.total}`);
    const rssAtStart = cpu.memoryOf(bff.pid)?.rssBytes;

    const rows: Array<Row & { target?: number }> = [
      { label: 'bare Express hello', server: bare, url: `${bare.url}/hello` },
      { label: 'GET /api (status)', server: bff, url: `${bff.url}/api`, target: 0.7 },
      { label: 'GET /api/gym/users?page=0', server: bff, url: membersUrl, headers: { cookie }, target: 0.3 },
    ];
    const figures = await measure(rows);
    const baseline = figures[0]!.requestsPerSecond;

    console.log(`\nBFF hot paths (${fmt(page.total)} members, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s, each server in its own process)`);
    const headline: Figure[] = [];
    console.log(`  ${'route'.padEnd(27)} ${'req/s'.padStart(7)} ${'ratio'.padStart(6)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'CPU µs/req'.padStart(11)}  target`);
    for (const [i, row] of rows.entries()) {
      const f = figures[i]!;
      const r = ratio(f.requestsPerSecond, baseline);
      const verdict = row.target === undefined ? '' : `ratio >= ${fmt(row.target, 2)} ${r >= row.target ? 'OK' : 'BELOW'}, p99 < 50 ms ${f.p99Ms < 50 ? 'OK' : 'ABOVE'}`;
      console.log(
        `  ${row.label.padEnd(27)} ${fmt(f.requestsPerSecond).padStart(7)} ${fmt(r, 2).padStart(6)} ${fmt(f.p50Ms, 1).padStart(7)} ${fmt(f.p99Ms).padStart(7)} ${fmt(f.cpuUsPerRequest).padStart(11)}  ${verdict}${f.non2xx ? ` (non-2xx ${f.non2xx})` : ''}`,
      );
      headline.push(info(`${row.label}: throughput`, f.requestsPerSecond, 'req/s'));
      if (row.target !== undefined) {
        headline.push(bar(`${row.label}: ratio to bare Express`, r, '×', `≥ ${fmt(row.target, 2)}`, r >= row.target));
        headline.push(bar(`${row.label}: p99`, f.p99Ms, 'ms', '< 50 ms', f.p99Ms < 50));
      }
      headline.push(info(`${row.label}: server CPU per request`, f.cpuUsPerRequest, 'µs'));
    }
    const memory = cpu.memoryOf(bff.pid);
    if (memory) console.log(`  BFF memory: ${fmt((rssAtStart ?? 0) / 1e6)} MB before the runs, ${fmt(memory.rssBytes / 1e6)} MB after, peak ${fmt(memory.peakRssBytes / 1e6)} MB`);
    if (memory) headline.push(info('BFF memory, peak (VmHWM)', memory.peakRssBytes / 1e6, 'MB'));
    return headline;
  } finally {
    await Promise.all([bare.stop(), bff.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
