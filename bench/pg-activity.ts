import pg from 'pg';

/** What the BFF's PostgreSQL connections were doing, on average over the samples (connections per sample). */
export interface PgActivity {
  /** Executing a statement (on a CPU, or waiting for one). */
  running: number;
  /** Blocked on a lock: `advisory` of them on an advisory lock (the live-event log's, the start-up's). */
  lockWait: number;
  advisory: number;
  /** Inside a transaction, waiting for the BFF's next statement (holding its locks meanwhile). */
  idleInTransaction: number;
  /** In the pool with nothing to do. */
  idle: number;
  samples: number;
}

/**
 * Samples `pg_stat_activity` every `everyMs` for the connections of `applicationName` (the BFF's
 * pool names itself `frontdesk`), to tell CPU work from waiting when throughput stops growing.
 */
export async function watchPgActivity(url: string, applicationName: string, everyMs = 100): Promise<() => Promise<PgActivity>> {
  const client = new pg.Client({ connectionString: url, application_name: 'frontdesk-bench' });
  await client.connect();
  const totals: PgActivity = { running: 0, lockWait: 0, advisory: 0, idleInTransaction: 0, idle: 0, samples: 0 };
  let stopped = false;
  let failure: unknown;
  const loop = (async () => {
    try {
      while (!stopped) {
        const { rows } = await client.query<{ state: string | null; wait_event_type: string | null; wait_event: string | null }>(
          'select state, wait_event_type, wait_event from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
          [applicationName],
        );
        totals.samples++;
        for (const row of rows) {
          if (row.wait_event_type === 'Lock') {
            totals.lockWait++;
            if (row.wait_event === 'advisory') totals.advisory++;
          } else if (row.state === 'active') totals.running++;
          else if (row.state?.startsWith('idle in transaction')) totals.idleInTransaction++;
          else totals.idle++;
        }
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
    } catch (err) {
      failure = err; // reported by the stop function, not as an unhandled rejection mid-run
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return async () => {
    stopped = true;
    await loop;
    if (failure) throw failure;
    const n = Math.max(1, totals.samples);
    return {
      running: totals.running / n,
      lockWait: totals.lockWait / n,
      advisory: totals.advisory / n,
      idleInTransaction: totals.idleInTransaction / n,
      idle: totals.idle / n,
      samples: totals.samples,
    };
  };
}
