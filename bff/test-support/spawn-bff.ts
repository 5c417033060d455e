import { spawn, type ChildProcess } from 'node:child_process';

export interface SpawnedBff {
  url: string;
  child: ChildProcess;
  /** Everything it printed so far. */
  output: () => string;
  /** SIGTERM and wait for it to end (its graceful shutdown). */
  stop: () => Promise<void>;
}

/**
 * Starts `bff/index.ts` as a process of its own, as `npm run serve` does (no shared memory with the
 * test or with other instances), and waits for the URL it announces. `env` adds to this process's.
 */
export async function spawnBff(env: Record<string, string>): Promise<SpawnedBff> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/index.ts'], {
    env: { ...process.env, NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
