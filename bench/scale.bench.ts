import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { signBody } from '../bff/kisi/signature';
import { standInClient } from '../bff/test-support/spawn-bff';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { BENCH_ADMIN, seedGymMembers, signIn } from './bench-fixtures';
import { info, type Figure } from './figures';
import { fmt, load, ratio, startChildServer, type ChildServer, type FreshRequest, type LoadResult } from './load';
import { watchPgActivity, type PgActivity } from './pg-activity';
import * as cpu from './proc-cpu';

const MEMBERS = 10_000;
const SECONDS = 5;
const ROUNDS = 2;
/** Even, so two instances get the same share: autocannon opens connection i to URL i mod n. */
const CONNECTIONS = 50;
/** The BFF's PostgreSQL pool per instance (engine.ts's default; the server does not pass DATABASE_POOL_SIZE on). */
const POOL = 10;
const CORES = os.availableParallelism();
const MEMBERS_PATH = '/api/gym/users?page=0';
const WEBHOOK_PATH = '/api/webhooks/kisi';

type PathName = 'members' | 'webhook';
const PATH_NAMES: PathName[] = ['members', 'webhook'];
const PATH_TITLES: Record<PathName, string> = { members: `GET ${MEMBERS_PATH}`, webhook: `POST ${WEBHOOK_PATH} (signed)` };

interface Setup {
  label: string;
  servers: ChildServer[];
  /** Valid on every one of `servers`: sessions live in the database they share. */
  cookie: string;
  postgres: boolean;
}

/** Cores kept busy during a run (CPU seconds per wall second), by who used them. */
interface CpuShare {
  loadGenerator: number;
  bff: number;
  postgres: number;
  other: number;
}

/** One configuration and path over all rounds: requests/s averaged, p99 the worst round's, CPU and activity over the whole time. */
interface Measured {
  result: LoadResult;
  cpu?: CpuShare;
  activity?: PgActivity;
}

/** What the rounds of one configuration and path add up to. */
interface Tally {
  runs: LoadResult[];
  cpu: CpuShare & { wall: number };
  /** Sums over the samples (each field × samples), divided out in `measuredOf`. */
  activity: PgActivity;
}

const newTally = (): Tally => ({
  runs: [],
  cpu: { loadGenerator: 0, bff: 0, postgres: 0, other: 0, wall: 0 },
  activity: { running: 0, lockWait: 0, advisory: 0, idleInTransaction: 0, idle: 0, samples: 0 },
});

function addActivity(sum: PgActivity, a: PgActivity): PgActivity {
  return {
    running: sum.running + a.running * a.samples,
    lockWait: sum.lockWait + a.lockWait * a.samples,
    advisory: sum.advisory + a.advisory * a.samples,
    idleInTransaction: sum.idleInTransaction + a.idleInTransaction * a.samples,
    idle: sum.idle + a.idle * a.samples,
    samples: sum.samples + a.samples,
  };
}

function measuredOf(t: Tally): Measured {
  const result = {
    requestsPerSecond: t.runs.reduce((sum, r) => sum + r.requestsPerSecond, 0) / t.runs.length,
    p99Ms: Math.max(...t.runs.map((r) => r.p99Ms)),
    non2xx: t.runs.reduce((sum, r) => sum + r.non2xx, 0),
  };
  const { wall } = t.cpu;
  const cpuShare = wall > 0 ? { loadGenerator: t.cpu.loadGenerator / wall, bff: t.cpu.bff / wall, postgres: t.cpu.postgres / wall, other: t.cpu.other / wall } : undefined;
  const n = t.activity.samples;
  const activity =
    n > 0
      ? { running: t.activity.running / n, lockWait: t.activity.lockWait / n, advisory: t.activity.advisory / n, idleInTransaction: t.activity.idleInTransaction / n, idle: t.activity.idle / n, samples: n }
      : undefined;
  return { result, cpu: cpuShare, activity };
}

/**
 * Every call a new unlock event, signed as Kisi signs it (so each one is stored, none is a
 * duplicate). It carries the actor's email: without one the receiver asks Kisi for it, and that
 * lookup queues at Kisi's 5 requests per second, which would measure the quota, not the receiver.
 */
const signedUnlockEvents = (secret: string): FreshRequest => () => {
  const body = JSON.stringify({
    uuid: crypto.randomUUID(),
    type: 'lock.unlock',
    actor_type: 'User',
    actor_id: 2,
    actor_name: 'Bench Member',
    actor_email: 'bench.member@members.example',
    object_type: 'Lock',
    object_id: 1,
    object_name: 'Main Entrance',
    organization_id: 1,
    place_id: 1,
    success: true,
    error_code: null,
    error_message: null,
    created_at: new Date().toISOString(),
  });
  return { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'X-Signature': `sha256=${signBody(body, secret)}` } };
};

/** Each server of the setup answers both paths before anything is measured (the cookie included: one sign-in serves both instances). */
async function checkSetup(setup: Setup, webhook: FreshRequest): Promise<void> {
  for (const server of setup.servers) {
    const list = await fetch(`${server.url}${MEMBERS_PATH}`, { headers: { cookie: setup.cookie } });
    const page = (await list.json()) as { total?: number };
    if (!list.ok || (page.total ?? 0) < MEMBERS) throw new Error(`scale bench: ${setup.label} at ${server.url}: the members list answered ${list.status}, total ${page.total}`);
    const { method, body, headers } = webhook();
    const hook = await fetch(`${server.url}${WEBHOOK_PATH}`, { method, body, headers });
    const answer = (await hook.json()) as { status?: string };
    if (!hook.ok || answer.status !== 'stored') throw new Error(`scale bench: ${setup.label} at ${server.url}: the webhook answered ${hook.status} ${JSON.stringify(answer)}`);
  }
}

interface CpuSample {
  at: number;
  self: number;
  bff: number;
  postgres: number;
  machine: number;
}

function sampleCpu(bffPids: number[], postmaster: number | undefined): CpuSample {
  return {
    at: performance.now(),
    self: cpu.selfCpuSeconds(),
    bff: bffPids.reduce((sum, pid) => sum + cpu.processCpuSeconds(pid), 0),
    postgres: postmaster === undefined ? 0 : cpu.treeCpuSeconds(postmaster),
    machine: cpu.machineBusySeconds(),
  };
}

/** CPU seconds used between two samples, by who, and the wall seconds between them. */
function cpuUsed(before: CpuSample, after: CpuSample): CpuShare & { wall: number } {
  // Clock ticks, and a process that ends between the two readings, can leave a hair below zero.
  const loadGenerator = Math.max(0, after.self - before.self);
  const bff = Math.max(0, after.bff - before.bff);
  const postgres = Math.max(0, after.postgres - before.postgres);
  // Whatever else ran on the machine meanwhile (another test run, the system).
  const other = Math.max(0, after.machine - before.machine - loadGenerator - bff - postgres);
  return { loadGenerator, bff, postgres, other, wall: (after.at - before.at) / 1000 };
}

/**
 * Stops the throw-away cluster. As root, ThrowawayPostgres.stop signals `runuser`, which does not
 * pass the signal on: it would wait 10 s, kill runuser and leave postgres running on a deleted
 * directory. So the postmaster gets the fast-shutdown SIGINT directly first; stop then only has
 * its directory to remove.
 */
async function stopPostgres(pg: ThrowawayPostgres, postmaster: number | undefined): Promise<void> {
  if (postmaster !== undefined && cpu.isRunning(postmaster)) {
    process.kill(postmaster, 'SIGINT');
    const deadline = Date.now() + 10_000;
    while (cpu.isRunning(postmaster) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await pg.stop();
}

const pad = (text: string, width: number) => text.padEnd(width);
const figures = (m: Measured) => `${fmt(m.result.requestsPerSecond).padStart(6)} req/s  p99 ${String(m.result.p99Ms).padStart(4)} ms`;
const f2 = (n: number) => fmt(n, 2);
const f1 = (n: number) => fmt(n, 1);
const busy = (share: CpuShare) => share.loadGenerator + share.bff + share.postgres + share.other;
/** Milliseconds of CPU per request from cores kept busy at a throughput. */
const msPerRequest = (busyCores: number, m: Measured) => (m.result.requestsPerSecond === 0 ? 0 : (busyCores * 1000) / m.result.requestsPerSecond);

/** One line per path on what stops two instances from serving more than one, from the figures of the two-instance runs. */
function whatBounds(name: PathName, one: Measured, two: Measured): string {
  const title = name === 'members' ? 'members list' : 'webhook';
  if (!two.cpu || !one.cpu) return `  ${title}: not measured (no /proc); the load generator, the BFF processes and PostgreSQL all share the ${CORES} cores.`;
  const cost = { load: msPerRequest(two.cpu.loadGenerator, two), bff: msPerRequest(two.cpu.bff, two), postgres: msPerRequest(two.cpu.postgres, two) };
  const ceiling = (CORES * 1000) / (cost.load + cost.bff + cost.postgres);
  const busyText = `${f2(busy(two.cpu))} of ${CORES} cores busy with two instances, ${f2(busy(one.cpu))} with one`;
  const costText = `CPU per request BFF ${f2(cost.bff)} + PostgreSQL ${f2(cost.postgres)} + load generator ${f2(cost.load)} ms, so the cores allow ~${fmt(ceiling)} req/s however many instances`;
  const waits = two.activity;
  const connections = `${2 * POOL} PostgreSQL connections`;
  if (waits && waits.advisory >= 1) {
    return `  ${title}: the live-event log's advisory lock. ${f1(waits.advisory)} of the ${connections} wait on it on average (${busyText}): every stored event is appended to live_events under one lock shared by all instances (lockLog), held until commit across the BFF's round trips, so webhooks are serialised and a second instance adds queueing, not throughput (${costText}).`;
  }
  if (busy(two.cpu) >= 0.9 * CORES) {
    return `  ${title}: CPU. ${busyText}; ${costText}${waits ? ` (of the ${connections}, ${f1(waits.running)} running and ${f1(waits.idle)} idle on average)` : ''}; a second instance only takes CPU from the first, from PostgreSQL and from the load generator.`;
  }
  return `  ${title}: waiting, not CPU (${busyText}); ${costText}${waits ? `; of the ${connections}, on average ${f1(waits.running)} running, ${f1(waits.lockWait)} waiting on a lock, ${f1(waits.idleInTransaction)} idle in a transaction` : ''}.`;
}

/**
 * The PostgreSQL scale-out: the gym members list and the signed webhook receiver on SQLite (one
 * instance), PostgreSQL with one instance and with two (separate processes on one database), the
 * load generator's connections split evenly over the instances. Prints requests/s, p99, the ratios,
 * where the CPU went (everything shares this machine's cores) and what PostgreSQL's connections
 * were doing, then what bounds the growth.
 */
export async function runScaleBench(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-scale-bench-'));
  const secret = crypto.randomBytes(24).toString('hex');
  const webhook = signedUnlockEvents(secret);
  const servers: ChildServer[] = [];
  let pg: ThrowawayPostgres | undefined;
  let postmaster: number | undefined;
  const started = performance.now();

  const env = (DATABASE_URL: string): Record<string, string> => ({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL,
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    KISI_WEBHOOK_SECRET: secret,
    // A stand-in client: the API is measured, so no client build is needed.
    STATIC_DIR: standInClient(dir),
  });
  const start = async (DATABASE_URL: string) => {
    const server = await startChildServer('bff/index.ts', env(DATABASE_URL));
    servers.push(server);
    return server;
  };

  try {
    pg = await startThrowawayPostgres();
    const pgUrl = pg.url;
    postmaster = cpu.available ? cpu.findProcess('postgres', [`port=${pg.port}`]) : undefined;
    const sqliteUrl = `file:${path.join(dir, 'bench.db')}`;
    await Promise.all([seedGymMembers(sqliteUrl, MEMBERS), seedGymMembers(pgUrl, MEMBERS)]);

    // All at once, the two PostgreSQL instances on one new database too: the first admin is created
    // under the start-up lock. Settled, not Promise.all: every server that did start is stopped.
    const together = await Promise.allSettled([start(sqliteUrl), start(pgUrl), start(pgUrl)]);
    const [sqlite, first, second] = together.map((s) => {
      if (s.status === 'rejected') throw s.reason;
      return s.value;
    }) as [ChildServer, ChildServer, ChildServer];
    const pgCookie = await signIn(first.url);
    const setups: Setup[] = [
      { label: 'SQLite, 1 instance', servers: [sqlite], cookie: await signIn(sqlite.url), postgres: false },
      { label: 'PostgreSQL, 1 instance', servers: [first], cookie: pgCookie, postgres: true },
      { label: 'PostgreSQL, 2 instances', servers: [first, second], cookie: pgCookie, postgres: true },
    ];
    for (const setup of setups) await checkSetup(setup, webhook);

    const tallies = new Map<string, Tally>();
    const tallyOf = (setup: Setup, name: PathName) => {
      const key = `${setup.label}|${name}`;
      let tally = tallies.get(key);
      if (!tally) tallies.set(key, (tally = newTally()));
      return tally;
    };
    const bffPids = servers.map((s) => s.pid);
    // Interleaved, so a burst of other work on the shared machine does not land on one configuration only.
    for (let round = 0; round < ROUNDS; round++) {
      for (const setup of setups) {
        for (const name of PATH_NAMES) {
          const tally = tallyOf(setup, name);
          const urls = setup.servers.map((s) => `${s.url}${name === 'members' ? MEMBERS_PATH : WEBHOOK_PATH}`);
          const options = name === 'members' ? { headers: { cookie: setup.cookie } } : { request: webhook };
          // Ten small queries a second on a connection of its own: noise next to the load.
          const stopWatching = setup.postgres ? await watchPgActivity(pgUrl, 'frontdesk') : undefined;
          const before = cpu.available ? sampleCpu(bffPids, postmaster) : undefined;
          tally.runs.push(await load(urls, { connections: CONNECTIONS, durationSeconds: SECONDS, ...options }));
          if (before) {
            const used = cpuUsed(before, sampleCpu(bffPids, postmaster));
            for (const k of ['loadGenerator', 'bff', 'postgres', 'other', 'wall'] as const) tally.cpu[k] += used[k];
          }
          if (stopWatching) tally.activity = addActivity(tally.activity, await stopWatching());
          for (const server of setup.servers) {
            const end = server.ended();
            if (end) throw new Error(`scale bench: the BFF at ${server.url} (pid ${server.pid}) ended during ${setup.label}, ${PATH_TITLES[name]}: ${end}; its output:\n${server.output.join('\n')}`);
          }
        }
      }
    }

    const measured = (setup: Setup, name: PathName) => measuredOf(tallyOf(setup, name));
    const [sqliteSetup, oneSetup, twoSetup] = setups as [Setup, Setup, Setup];
    const W = 33;
    const C = 38;
    const row = (label: string, cell: (name: PathName) => string) => console.log(`  ${pad(label, W)}${pad(cell('members'), C)}${cell('webhook')}`);

    console.log(
      `\nPostgreSQL scale-out (${fmt(MEMBERS)} members; ${CONNECTIONS} connections split evenly over the instances; ${ROUNDS} interleaved rounds of ${SECONDS} s after 1 s of warm-up; each BFF its own process; load generator, BFFs and PostgreSQL share ${CORES} cores)`,
    );
    row('', (name) => PATH_TITLES[name]);
    for (const setup of setups) row(setup.label, (name) => figures(measured(setup, name)));
    const ratioRow = (label: string, a: Setup, b: Setup) =>
      row(label, (name) => `${f2(ratio(measured(a, name).result.requestsPerSecond, measured(b, name).result.requestsPerSecond))}x req/s`);
    ratioRow('PostgreSQL 2 / 1 instance', twoSetup, oneSetup);
    ratioRow('PostgreSQL 1 instance / SQLite', oneSetup, sqliteSetup);
    ratioRow('PostgreSQL 2 instances / SQLite', twoSetup, sqliteSetup);
    for (const setup of setups) {
      for (const name of PATH_NAMES) {
        const { non2xx } = measured(setup, name).result;
        if (non2xx > 0) console.log(`  WARNING: ${setup.label}, ${PATH_TITLES[name]}: ${fmt(non2xx)} answers were not 2xx (or errors, timeouts)`);
      }
    }

    if (cpu.available) {
      console.log(`  CPU, cores busy of ${CORES}: load generator + BFF processes + PostgreSQL + everything else`);
      for (const setup of setups) {
        row(setup.label, (name) => {
          const share = measured(setup, name).cpu!;
          return `${f2(share.loadGenerator)} + ${f2(share.bff)} + ${f2(share.postgres)} + ${f2(share.other)} = ${f2(busy(share))}`;
        });
      }
      const others = setups.flatMap((setup) => PATH_NAMES.map((name) => measured(setup, name).cpu!.other));
      if (Math.max(...others) > 0.25) console.log(`  NOTE: other processes used up to ${f2(Math.max(...others))} cores during the runs; the figures above share the machine with them.`);
    }
    console.log(`  BFF connections in PostgreSQL (pool of ${POOL} per instance), on average: running / waiting on a lock (advisory) / idle in a transaction / idle`);
    for (const setup of [oneSetup, twoSetup]) {
      row(setup.label, (name) => {
        const a = measured(setup, name).activity!;
        return `${f1(a.running)} / ${f1(a.lockWait)} (${f1(a.advisory)}) / ${f1(a.idleInTransaction)} / ${f1(a.idle)}`;
      });
    }
    console.log('  What bounds the growth from one PostgreSQL instance to two:');
    for (const name of PATH_NAMES) console.log(whatBounds(name, measured(oneSetup, name), measured(twoSetup, name)));
    return PATH_NAMES.flatMap((name) => [
      ...setups.map((setup) => info(`${PATH_TITLES[name]}, ${setup.label}`, measured(setup, name).result.requestsPerSecond, 'req/s')),
      info(`${PATH_TITLES[name]}, PostgreSQL 2 / 1 instance (both on this machine's cores)`, ratio(measured(twoSetup, name).result.requestsPerSecond, measured(oneSetup, name).result.requestsPerSecond), '×'),
    ]);
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    if (pg) await stopPostgres(pg, postmaster);
    fs.rmSync(dir, { recursive: true, force: true });
    console.log(`  (scale bench: ${fmt((performance.now() - started) / 1000)} s)`);
  }
}
