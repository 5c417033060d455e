import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

/** Every answer of a load run by status code, and the requests that got none: what a run that must answer one way (all 201) is checked against. */
export interface Answers {
  byStatus: Record<string, number>;
  /** Connection errors, timeouts included (autocannon counts a timeout among its errors). */
  unanswered: number;
}

/** A load run's figures (its median latency too), and its answers, the warm-up's included: a wrong answer there counts as much as one measured. */
export type LoadRun = LoadResult & { p50Ms: number; answers: Answers };

/**
 * A request built anew for every send: for endpoints that must see a different body each time (a
 * webhook's new event), or reads that rotate over paths (`path` replaces the URL's path and query).
 */
export type FreshRequest = () => { method: 'GET' | 'POST' | 'PUT' | 'PATCH'; path?: string; body?: string; headers?: Record<string, string> };

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  request?: FreshRequest;
}

/**
 * A bounded autocannon run against loopback URLs (after a short warm-up the figures ignore). Given
 * several URLs, autocannon opens connection i to URL i mod n: the connections split evenly over the
 * servers, and each stays on its server for the whole run (keep-alive).
 */
export async function load(url: string | string[], options: LoadOptions): Promise<LoadRun> {
  const next = options.request;
  // One request definition rebuilt before every send (autocannon calls setupRequest each time).
  const requests = next && [
    {
      setupRequest: (req: autocannon.Request) => {
        const fresh = next();
        return { ...req, method: fresh.method, ...(fresh.path !== undefined && { path: fresh.path }), body: fresh.body, headers: { ...req.headers, ...fresh.headers } };
      },
    },
  ];
  const run = (duration: number) =>
    autocannon({
      // autocannon accepts a list of URLs (its README, option `url`); @types/autocannon only declares one.
      url: url as string,
      connections: options.connections,
      duration,
      headers: options.headers,
      ...(requests && { requests }),
    });
  const warmUp = await run(1);
  const result = await run(options.durationSeconds);
  const byStatus: Record<string, number> = {};
  for (const r of [warmUp, result]) {
    for (const [status, stat] of Object.entries(r.statusCodeStats ?? {})) byStatus[status] = (byStatus[status] ?? 0) + (stat.count ?? 0);
  }
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    p50Ms: result.latency.p50,
    non2xx: result.non2xx + result.errors + result.timeouts,
    answers: { byStatus, unanswered: warmUp.errors + result.errors },
  };
}

type LoadTarget = { url: string; headers?: Record<string, string> };

/**
 * Loads each target in turn, `rounds` times over, and averages each target's rounds (p99: the worst
 * round), so a burst of noise on a shared machine does not decide a ratio.
 */
export async function interleaved<K extends string>(
  targets: Record<K, LoadTarget>,
  options: { connections: number; durationSeconds: number; rounds: number },
): Promise<Record<K, LoadResult>> {
  const names = Object.keys(targets) as K[];
  const runs = new Map<K, LoadResult[]>(names.map((name) => [name, []]));
  for (let round = 0; round < options.rounds; round++) {
    for (const name of names) {
      const { url, headers } = targets[name];
      runs.get(name)!.push(await load(url, { connections: options.connections, durationSeconds: options.durationSeconds, headers }));
    }
  }
  const mean = (list: LoadResult[]): LoadResult => ({
    requestsPerSecond: list.reduce((sum, r) => sum + r.requestsPerSecond, 0) / list.length,
    p99Ms: Math.max(...list.map((r) => r.p99Ms)),
    non2xx: list.reduce((sum, r) => sum + r.non2xx, 0),
  });
  return Object.fromEntries(names.map((name) => [name, mean(runs.get(name)!)])) as Record<K, LoadResult>;
}

export interface ChildServer {
  url: string;
  /** The server's process (one process: `node --import tsx`, no wrapper), e.g. to read its CPU time. */
  pid: number;
  /** Its stdout lines, those after start-up included. */
  output: string[];
  /** How it ended ("exit code 1", "signal SIGTERM"), undefined while it runs: a server that dies mid-run must not pass for a slow one. */
  ended: () => string | undefined;
  stop: () => Promise<void>;
}

/**
 * Starts a server script in its own process, so the load generator never shares the server's event
 * loop, and waits for its "running at <url>" line. A server that exits or does not start fails the
 * promise at once and leaves no process or timer behind.
 */
export function startChildServer(script: string, env: Record<string, string>): Promise<ChildServer> {
  // No drain on SIGTERM (the BFF's SHUTDOWN_DRAIN_MS): nothing routes by its readiness here, and each stop would wait it out.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, SHUTDOWN_DRAIN_MS: '0', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const output: string[] = [];
  let end: string | undefined;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code, signal) => {
      end = signal ? `signal ${signal}` : `exit code ${code}`;
      done();
    }),
  );
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`${script} did not start in 60 s: ${output.join('\n')}`));
      void stop();
    }, 60_000);
    const failed = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${signal ?? code}: ${output.join('\n')}`));
    };
    child.once('exit', failed);
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const url = line.match(/running at (http:\/\/\S+)/)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.removeListener('exit', failed);
      resolve({ url, pid: child.pid!, output, ended: () => end, stop });
    });
  });
}

export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
