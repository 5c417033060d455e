import { RETENTION_KINDS, type RetentionKind, type RetentionReport } from '../../contracts/operations.contract';
import type { Logger } from '../../lib/logger';
import type { PurgedBatch, RetentionRepository, StoredRun } from './retention.repository';

/** How long each kind is kept (days; 0: for ever), and how the purge goes about it. */
export interface RetentionSettings {
  days: Record<RetentionKind, number>;
  /** Rows per statement (each its own transaction). */
  batchSize: number;
  /** The pause between two batches, in which the app's own writes take their turn. */
  pauseMs: number;
  /** A run's period (a day), and how soon a failed run is tried again. */
  everyMs: number;
  retryMs: number;
}

export const DAY_MS = 86_400_000;
export const RETENTION_DEFAULTS: Omit<RetentionSettings, 'days'> = { batchSize: 1_000, pauseMs: 50, everyMs: DAY_MS, retryMs: 3_600_000 };

export interface RetentionServiceDeps {
  retention: RetentionRepository;
  /**
   * Removes the bytes of `sha256` under the hash's lock when no stored file holds them any more
   * (a file finishing meanwhile with the same bytes keeps them).
   */
  removeUnusedBlob: (sha256: string) => Promise<void>;
  settings: RetentionSettings;
  logger: Logger;
  now?: () => Date;
  /** Told after each batch (tests watch the purge go a batch at a time). */
  onBatch?: (kind: RetentionKind, batch: PurgedBatch) => void | Promise<void>;
}

const pause = (ms: number, stop: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (stop.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    }
    stop.addEventListener('abort', done, { once: true });
  });

class Stopped extends Error {
  override name = 'Stopped';
}

/**
 * Retention (decision 0097): once a day one instance takes the run; for each kind kept for a limited
 * time, the rows older than its cut-off go a batch at a time, a short pause between batches, so the
 * app's writes never wait behind a long delete. Each run's outcome is kept for the admins' page.
 */
export function retentionService({ retention, removeUnusedBlob, settings, logger, now = () => new Date(), onBatch }: RetentionServiceDeps) {
  const cutoffOf = (kind: RetentionKind, at: Date) => new Date(at.getTime() - settings.days[kind] * DAY_MS).toISOString();

  /** Every batch of `purge` until one comes back short; answers how many rows went. */
  async function inBatches(kind: RetentionKind, purge: (limit: number) => Promise<PurgedBatch>, stop: AbortSignal): Promise<number> {
    let total = 0;
    for (;;) {
      if (stop.aborted) throw new Stopped('the server is stopping');
      const batch = await purge(settings.batchSize);
      total += batch.purged;
      // The bytes go only after their rows' delete has committed, each under its hash's lock.
      for (const sha256 of batch.sha256s ?? []) await removeUnusedBlob(sha256);
      await onBatch?.(kind, batch);
      if (batch.purged < settings.batchSize) return total;
      await pause(settings.pauseMs, stop);
    }
  }

  async function purgeKind(kind: RetentionKind, cutoff: string, stop: AbortSignal): Promise<number> {
    if (kind === 'conversations') {
      // A conversation's messages first, so no one batch takes a long thread with its conversation.
      await inBatches(kind, async (limit) => ({ purged: await retention.conversationMessages(cutoff, limit) }), stop);
    }
    const purged = await inBatches(kind, (limit) => retention[kind](cutoff, limit), stop);
    if (kind === 'doorEvents') {
      // Who pressed a remote unlock that matched no event goes at the same cut-off (one that matched went
      // with its event); counted apart: the kind counts door events.
      await inBatches(kind, async (limit) => ({ purged: await retention.remoteUnlockRequests(cutoff, limit) }), stop);
      // Members' visits are kept from the door events, and go at their cut-off too (decision 0104).
      await inBatches(kind, async (limit) => ({ purged: await retention.memberVisits(cutoff, limit) }), stop);
    }
    return purged;
  }

  /** One run over every kind kept for a limited time, whoever's turn it is; its outcome is kept. */
  async function run(stop: AbortSignal = new AbortController().signal): Promise<StoredRun> {
    const started = now();
    const outcome: StoredRun = { startedAt: started.toISOString(), finishedAt: started.toISOString(), status: 'ok', error: null, kinds: {} };
    try {
      for (const kind of RETENTION_KINDS) {
        if (settings.days[kind] === 0) continue;
        const cutoff = cutoffOf(kind, started);
        const purged = await purgeKind(kind, cutoff, stop);
        outcome.kinds[kind] = { cutoff, purged };
      }
    } catch (err) {
      outcome.status = 'failed';
      outcome.error = (err instanceof Error ? err.message : String(err)).slice(0, 300);
    }
    outcome.finishedAt = now().toISOString();
    await retention.saveRun(outcome);
    const purged = Object.fromEntries(Object.entries(outcome.kinds).filter(([, k]) => k.purged > 0).map(([kind, k]) => [kind, k.purged]));
    if (outcome.status === 'failed') logger.warn({ purged, err: outcome.error }, 'retention: the purge stopped; the next run carries on');
    else if (Object.keys(purged).length > 0) logger.info({ purged }, 'retention: purged what is past its time');
    return outcome;
  }

  return {
    run,

    /**
     * The job's poll: runs when this instance takes the day's run (one of several instances does);
     * a failed one is tried again after `retryMs` rather than a day later.
     */
    async runIfDue(stop: AbortSignal): Promise<StoredRun | undefined> {
      const at = now();
      if (!(await retention.claimRun(at.toISOString(), new Date(at.getTime() + settings.everyMs).toISOString()))) return undefined;
      // A run that stopped (or could not even record its outcome: the database away) is due again soon, not in a day.
      const soon = () => retention.setNextRun(new Date(now().getTime() + (stop.aborted ? 0 : settings.retryMs)).toISOString());
      let outcome: StoredRun;
      try {
        outcome = await run(stop);
      } catch (err) {
        await soon().catch(() => undefined);
        throw err;
      }
      if (outcome.status === 'failed') await soon();
      return outcome;
    },

    /** What admins see: each kind's days now, and the last run's cut-off and count. */
    async report(): Promise<RetentionReport> {
      const [lastRun, nextRunAt] = await Promise.all([retention.lastRun(), retention.nextRunAt()]);
      return {
        batchSize: settings.batchSize,
        lastRun: lastRun && { startedAt: lastRun.startedAt, finishedAt: lastRun.finishedAt, status: lastRun.status, error: lastRun.error },
        nextRunAt,
        kinds: RETENTION_KINDS.map((kind) => ({ kind, days: settings.days[kind], cutoff: lastRun?.kinds[kind]?.cutoff ?? null, purged: lastRun?.kinds[kind]?.purged ?? 0 })),
      };
    },
  };
}
export type RetentionService = ReturnType<typeof retentionService>;
