import { startServer } from './server';
import { startFailureLine } from './start-up';

try {
  const running = await startServer(process.env, console.log, { requireClientBuild: true });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests in flight, then stopping.`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error('Shutdown failed:', err);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (err) {
  console.error(startFailureLine(err));
  // The whole error only when asked for: the line above is what a user needs.
  if (process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace') console.error(err);
  // Exit now, whatever the failed start may still hold open.
  process.exit(1);
}
