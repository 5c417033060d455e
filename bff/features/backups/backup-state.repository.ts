import * as v from 'valibot';
import { BackupRunSchema, type BackupRun } from '../../contracts/operations.contract';
import type { Db } from '../../db/database';
import { appMetaValue, claimAppMetaLease } from '../../db/app-meta';

/**
 * What every instance knows of backups, in `app_meta` (no table of their own): who is taking one
 * now (a lease), the last one tried and the last one that succeeded, and when the schedule began.
 */
const LEASE_KEY = 'backup.lease';
const LAST_KEY = 'backup.last';
const LAST_SUCCESS_KEY = 'backup.last_success';
const SCHEDULE_SINCE_KEY = 'backup.schedule_since';

/** The lease's value: `<until> <json>`, so that "has it run out" is one text comparison with an ISO time. */
const LeaseSchema = v.object({ holder: v.string(), by: v.string(), startedAt: v.string() });
export type BackupLease = v.InferOutput<typeof LeaseSchema>;

const leaseValue = (until: string, lease: BackupLease) => `${until} ${JSON.stringify(lease)}`;
/** Only the holder's own lease matches (its holder id is a random UUID). */
const holdersPattern = (holder: string) => `% {"holder":"${holder}",%`;

function parseJson<T>(schema: v.GenericSchema<unknown, T>, text: string | undefined): T | null {
  if (text === undefined) return null;
  try {
    const parsed = v.safeParse(schema, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

const put = (db: Db, key: string, value: string) =>
  db
    .insertInto('app_meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute();

export function backupStateRepository(db: Db) {
  const meta = (key: string) => appMetaValue(db, key);

  return {
    /**
     * Takes the lease until `until` when nobody holds it or the holder's has run out (a process that
     * died holds it no longer than that): one statement, so two instances never both get it.
     */
    claim: (lease: BackupLease, now: string, until: string): Promise<boolean> => claimAppMetaLease(db, LEASE_KEY, leaseValue(until, lease), now),
    /** Moves the holder's lease on; false when it is no longer theirs (it ran out and another took it). */
    async renew(lease: BackupLease, until: string): Promise<boolean> {
      const result = await db.updateTable('app_meta').set({ value: leaseValue(until, lease) }).where('key', '=', LEASE_KEY).where('value', 'like', holdersPattern(lease.holder)).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async release(holder: string): Promise<void> {
      await db.deleteFrom('app_meta').where('key', '=', LEASE_KEY).where('value', 'like', holdersPattern(holder)).execute();
    },
    /** The lease held now (not run out at `now`), if any. */
    async running(now: string): Promise<BackupLease | null> {
      const value = await meta(LEASE_KEY);
      if (!value || value.slice(0, value.indexOf(' ')) < now) return null;
      return parseJson(LeaseSchema, value.slice(value.indexOf(' ') + 1));
    },
    /** Forgets any lease (a restored database carries the one its backup held). */
    forgetLease: () => db.deleteFrom('app_meta').where('key', '=', LEASE_KEY).execute(),

    last: async () => parseJson(BackupRunSchema, await meta(LAST_KEY)),
    lastSuccess: async () => parseJson(BackupRunSchema, await meta(LAST_SUCCESS_KEY)),
    /** Records a backup tried (and, when it succeeded, as the last success too). */
    async record(run: BackupRun): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await put(trx, LAST_KEY, JSON.stringify(run));
        if (run.ok) await put(trx, LAST_SUCCESS_KEY, JSON.stringify(run));
      });
    },

    /** When the schedule first looked (the first scheduled backup is one interval after it); set once. */
    async scheduleSince(now: string): Promise<string> {
      await db
        .insertInto('app_meta')
        .values({ key: SCHEDULE_SINCE_KEY, value: now })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      return (await meta(SCHEDULE_SINCE_KEY)) ?? now;
    },
  };
}
export type BackupStateRepository = ReturnType<typeof backupStateRepository>;
