import { spawn } from 'node:child_process';
import { startThrowawayPostgres } from './throwaway-postgres';

/**
 * `npm run postgres` starts a throw-away PostgreSQL and prints its DATABASE_URL; Ctrl-C removes it.
 * `npm run postgres -- <command...>` runs the command with DATABASE_URL and TEST_DATABASE_URL set
 * to it, removes the cluster afterwards, and exits with the command's status.
 */
const command = process.argv.slice(2);
const cluster = await startThrowawayPostgres();
let stopping: Promise<void> | undefined;
const stop = (code: number) => {
  stopping ??= cluster.stop().finally(() => process.exit(code));
  return stopping;
};
process.on('SIGINT', () => void stop(130));
process.on('SIGTERM', () => void stop(143));

if (command.length === 0) {
  console.log(`Throw-away PostgreSQL is running (Ctrl-C stops it and deletes its data):\n  DATABASE_URL=${cluster.url}`);
} else {
  console.log(`Throw-away PostgreSQL at ${cluster.url}`);
  const child = spawn(command[0]!, command.slice(1), {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: cluster.url, TEST_DATABASE_URL: cluster.url },
  });
  child.on('exit', (code, signal) => void stop(code ?? (signal ? 1 : 0)));
  child.on('error', (err) => {
    console.error(err.message);
    void stop(1);
  });
}
