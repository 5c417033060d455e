import autocannon from 'autocannon';
import { spawn, type ChildProcess } from 'node:child_process';
import readline from 'node:readline';

export interface LoadResult {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

/** A bounded autocannon run against a loopback URL (after a short warm-up the figures ignore). */
export async function load(url: string, options: { connections: number; durationSeconds: number; headers?: Record<string, string> }): Promise<LoadResult> {
  await autocannon({ url, connections: options.connections, duration: 1, headers: options.headers });
  const result = await autocannon({ url, connections: options.connections, duration: options.durationSeconds, headers: options.headers });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx + result.errors + result.timeouts };
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
  output: string[];
  stop: () => Promise<void>;
}

/**
 * Starts a server script in its own process, so the load generator never shares the server's event
 * loop, and waits for its "running at <url>" line.
 */
export function startChildServer(script: string, env: Record<string, string>): Promise<ChildServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start in 60 s`)), 60_000);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}: ${output.join('\n')}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const url = line.match(/running at (http:\/\/\S+)/)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolve({
        url,
        output,
        stop: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

export const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
export const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
