import type { Readiness, ReadinessCheck } from '../../contracts/health.contract';
import type { Database } from '../../db/database';
import { HttpError } from '../../lib/http-error';

/** A probe gives up on a database that does not answer in this time: the balancer asks again soon anyway. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

export interface HealthDeps {
  database: Pick<Database, 'engine' | 'isMigrated' | 'listenersConnected'>;
  /** True once the instance was told to stop (SIGTERM): the balancer should send it nothing new. */
  isStopping: () => boolean;
  timeoutMs?: number;
}

type Outcome = { ok: true } | { ok: false; check: ReadinessCheck; message: string };

const within = <T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
};

export function healthService({ database, isStopping, timeoutMs = READY_CHECK_TIMEOUT_MS }: HealthDeps) {
  /** One query answers both "reachable" and "migrated". The reason stays general: a probe's answer is public. */
  async function databaseCheck(): Promise<Outcome> {
    try {
      const migrated = await within(database.isMigrated(), timeoutMs);
      if (migrated === 'timeout') return { ok: false, check: 'database', message: `The database did not answer within ${timeoutMs} ms.` };
      return migrated ? { ok: true } : { ok: false, check: 'migrations', message: 'The database lacks migrations this instance needs.' };
    } catch {
      return { ok: false, check: 'database', message: 'The database cannot be reached.' };
    }
  }

  return {
    live: () => ({ status: 'live' as const }),

    /** Ready, or a 503 whose `errors` name each check that failed. */
    async ready(): Promise<Readiness> {
      // A stopping instance is out whatever else holds; its database is about to close.
      if (isStopping()) throw notReady([{ ok: false, check: 'stopping', message: 'This instance is stopping; it finishes what it has and takes nothing new.' }]);
      const failed: Outcome[] = [await databaseCheck()];
      if (!database.listenersConnected()) failed.push({ ok: false, check: 'liveEvents', message: 'The connection that hears other instances\u2019 live events is down; it is reconnecting.' });
      if (failed.some((outcome) => !outcome.ok)) throw notReady(failed);
      return { status: 'ready', checks: { database: 'ok', migrations: 'ok', liveEvents: database.engine === 'postgres' ? 'ok' : 'not needed' } };
    },
  };
}
export type HealthService = ReturnType<typeof healthService>;

function notReady(outcomes: Outcome[]): HttpError {
  const errors = outcomes.flatMap((outcome) => (outcome.ok ? [] : [{ path: outcome.check, message: outcome.message }]));
  return new HttpError(503, `Not ready: ${errors.map((e) => e.message).join(' ')}`, { errors, headers: { 'Cache-Control': 'no-store' } });
}
