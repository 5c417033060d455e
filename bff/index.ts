import { startServer } from './server';
import { startFailureLine } from './start-up';

try {
  const running = await startServer(process.env, console.log, { requireClientBuild: true });
  let stopping = false;
  // SIGTERM (a service manager, a rolling restart) drains first: readiness says "stopping" for SHUTDOWN_DRAIN_MS
  // while the instance still answers. SIGINT (Ctrl-C at a terminal) and a second signal stop taking connections at once.
  const stop = (signal: string) => {
    if (stopping) {
      console.log(`${signal} again: no longer taking connections; finishing requests in flight.`);
      void running.close();
      return;
    }
    stopping = true;
    const drain = signal === 'SIGTERM';
    console.log(drain ? `${signal}: readiness says stopping; finishing requests in flight, then stopping.` : `${signal}: finishing requests in flight, then stopping.`);
    running.close({ drain }).then(
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
