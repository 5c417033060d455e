import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface SpawnedBff {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** SIGTERM and wait for it to end (its graceful shutdown). */
  stop: () => Promise<void>;
}

/**
 * Puts a stand-in index.html in `staticDir` (created if need be) unless a build is there: the BFF
 * refuses to start in production without the client, and tests and benches that measure the API
 * build none. Returns `staticDir`.
 */
export function standInClient(staticDir: string): string {
  const index = path.join(staticDir, 'index.html');
  if (!fs.existsSync(index)) {
    fs.mkdirSync(staticDir, { recursive: true });
    fs.writeFileSync(index, '<!doctype html><title>Frontdesk (stand-in client for tests)</title>');
  }
  return staticDir;
}

const spawnIndex = (env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', 'bff/index.ts'], {
    // No drain on SIGTERM unless a test asks for one: every test's stop would wait it out.
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHUTDOWN_DRAIN_MS: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/**
 * Starts `bff/index.ts` as a process of its own, as `npm run serve` does (no shared memory with the
 * test or with other instances), and waits for the URL it announces. `env` adds to this process's;
 * its STATIC_DIR gets a stand-in client (without one, a temporary directory that goes with the process).
 */
export async function spawnBff(env: Record<string, string>): Promise<SpawnedBff> {
  const ownStaticDir = env.STATIC_DIR ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-client-'));
  const child = spawnIndex({ ...env, STATIC_DIR: standInClient(env.STATIC_DIR ?? ownStaticDir!) });
  if (ownStaticDir) child.once('exit', () => fs.rmSync(ownStaticDir, { recursive: true, force: true }));
  let output = '';
  const collect = (chunk: Buffer) => void (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The BFF did not start within 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /Frontdesk is running at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`The BFF exited (${code ?? signal}):\n${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface FailedStart {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the spawn to the exit. */
  ms: number;
}

/**
 * Starts `bff/index.ts` as spawnBff does (no stand-in client: `env` decides everything) and waits
 * for it to exit, for tests of a start that must fail. A process still alive after 30 s is killed
 * and reported as such (a failed start must never hang).
 */
export async function spawnBffToExit(env: Record<string, string>): Promise<FailedStart> {
  const started = Date.now();
  const child = spawnIndex(env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('close', (c, s) => resolve([c, s])));
  clearTimeout(timer);
  return { code, signal, stdout, stderr, ms: Date.now() - started };
}
