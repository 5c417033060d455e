import type { Logger } from './logger';

/** Background work a feature runs while the server is up (started by the server, never by `createApp`). */
export interface Job {
  name: string;
  start: () => void;
  /** Stops the timer and waits for a run in progress. */
  stop: () => Promise<void>;
}

/**
 * A job that runs `work` once at start and then every `everyMs`, one run at a time; a failed run is
 * logged and the next one comes as planned. `stop` aborts the signal `work` is given: long work (a
 * purge in many batches) ends at its next step instead of holding up the server's stop.
 */
export function periodicJob(name: string, everyMs: number, work: (stop: AbortSignal) => Promise<unknown>, logger: Logger): Job {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopper = new AbortController();
  const run = () => {
    running ??= work(stopper.signal)
      .then(
        () => undefined,
        (err: unknown) => logger.warn({ err }, `${name} failed`),
      )
      .finally(() => (running = undefined));
  };
  return {
    name,
    start: () => {
      stopper = new AbortController();
      run();
      timer = setInterval(run, everyMs);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      stopper.abort();
      await running;
    },
  };
}
