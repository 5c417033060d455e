import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../db/database';
import type { DB } from '../../db/schema';

/** A door switch owed to Kisi, as the sender claims it. */
export interface OwedSwitch {
  memberId: number;
  wantEnabled: boolean;
  /** Grows with every change of the member: a send removes its row only if no newer change came. */
  version: number;
  attempts: number;
  /** A deleted member's email (their record is gone); null while the member is here. */
  email: string | null;
}

/**
 * Switches one claim takes at most: two Kisi requests each at Kisi's 5 a second, 50 are sent in about
 * 20 s, well inside the sender's lease (`SEND_LEASE_MS`, a minute).
 */
export const CLAIM_BATCH = 50;

/**
 * The door-access outbox (migration 025): one row per member whose Kisi access does not follow their
 * membership yet. Every decision is one statement, so instances sharing PostgreSQL agree: a claim is
 * an update of the due rows nobody holds that sets their lease (`claimed_until`), and PostgreSQL
 * re-checks the condition on a row another instance claimed meanwhile, so each row goes to one sender.
 * Nothing moves a held row; its sender releases it (or its lease ends, if that sender died).
 */
export function doorAccessOutboxRepository(db: Db) {
  const toOwed = (r: { member_id: number; want_enabled: number; version: number; attempts: number; email: string | null }): OwedSwitch => ({
    memberId: r.member_id,
    wantEnabled: r.want_enabled === 1,
    version: r.version,
    attempts: r.attempts,
    email: r.email,
  });
  const unheld = (now: string) => (eb: ExpressionBuilder<DB, 'door_access_outbox'>) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', now)]);
  const release = (memberId: number) => db.updateTable('door_access_outbox').set({ claimed_until: null }).where('member_id', '=', memberId).execute();
  return {
    /** Owes Kisi the member's switch to `wantEnabled`, due at `at`; supersedes one not yet sent. */
    queue: (memberId: number, wantEnabled: boolean, at: string) =>
      db
        .insertInto('door_access_outbox')
        .values({ member_id: memberId, want_enabled: wantEnabled ? 1 : 0, next_try_at: at, created_at: at })
        .onConflict((oc) =>
          oc.column('member_id').doUpdateSet({ want_enabled: wantEnabled ? 1 : 0, version: sql<number>`door_access_outbox.version + 1`, attempts: 0, next_try_at: at, last_error: null }),
        )
        .execute(),

    /** Owes Kisi each new member's switch, due at `at`, a few hundred a statement (a CSV import's thousands); supersedes any not yet sent. */
    queueMany: async (switches: ReadonlyArray<{ memberId: number; wantEnabled: boolean }>, at: string) => {
      for (let i = 0; i < switches.length; i += 200) {
        await db
          .insertInto('door_access_outbox')
          .values(switches.slice(i, i + 200).map(({ memberId, wantEnabled }) => ({ member_id: memberId, want_enabled: wantEnabled ? 1 : 0, next_try_at: at, created_at: at })))
          .onConflict((oc) =>
            oc.column('member_id').doUpdateSet((eb) => ({ want_enabled: eb.ref('excluded.want_enabled'), version: sql<number>`door_access_outbox.version + 1`, attempts: 0, next_try_at: at, last_error: null })),
          )
          .execute();
      }
    },

    /**
     * The member is deleted: their access is owed off, found by the email Kisi knows them by (the row
     * outlives the member's record, migration 029); supersedes a switch not yet sent.
     */
    queueSwitchOff: (memberId: number, email: string, at: string) =>
      db
        .insertInto('door_access_outbox')
        .values({ member_id: memberId, want_enabled: 0, next_try_at: at, created_at: at, email })
        .onConflict((oc) =>
          oc.column('member_id').doUpdateSet({ want_enabled: 0, email, version: sql<number>`door_access_outbox.version + 1`, attempts: 0, next_try_at: at, last_error: null }),
        )
        .execute(),

    /**
     * The rows due at `now`, at most `limit` of them, longest waiting first (or the one member's, due
     * or not), each leased to this sender until `leaseUntil`. The limit keeps a claim sendable within
     * its lease when thousands are due at once (a CSV import); the next run takes the next ones.
     */
    claim: async (now: string, leaseUntil: string, memberId?: number, limit = CLAIM_BATCH): Promise<OwedSwitch[]> =>
      (
        await db
          .updateTable('door_access_outbox')
          .set({ claimed_until: leaseUntil })
          .where(unheld(now))
          .$if(memberId === undefined, (qb) =>
            qb
              .where('next_try_at', '<=', now)
              .where('member_id', 'in', (eb) =>
                eb
                  .selectFrom('door_access_outbox as due')
                  .select('due.member_id')
                  .where('due.next_try_at', '<=', now)
                  .where((due) => due.or([due('due.claimed_until', 'is', null), due('due.claimed_until', '<=', now)]))
                  .orderBy('due.next_try_at')
                  .orderBy('due.member_id')
                  .limit(limit),
              ),
          )
          .$if(memberId !== undefined, (qb) => qb.where('member_id', '=', memberId!))
          .returning(['member_id', 'want_enabled', 'version', 'attempts', 'email'])
          .execute()
      ).map(toOwed),

    /** Kisi agrees: the row goes, unless a newer change replaced it meanwhile (that one is released, for the next send). */
    done: async (owed: OwedSwitch) => {
      const removed = await db.deleteFrom('door_access_outbox').where('member_id', '=', owed.memberId).where('version', '=', owed.version).execute();
      await release(owed.memberId);
      return removed;
    },

    /** The try failed: counted, with its reason, tried again at `nextTryAt` (unless a newer change replaced it). */
    failed: (owed: OwedSwitch, error: string, nextTryAt: string) =>
      db
        .updateTable('door_access_outbox')
        .set({ attempts: owed.attempts + 1, last_error: error, next_try_at: nextTryAt })
        .where('member_id', '=', owed.memberId)
        .where('version', '=', owed.version)
        .execute()
        .then(() => release(owed.memberId)),

    /** Kisi answers again: every waiting row nobody holds is due at once. */
    bringForward: (now: string) => db.updateTable('door_access_outbox').set({ next_try_at: now }).where('next_try_at', '>', now).where(unheld(now)).execute(),

    /** How many members wait, and the soonest next try. */
    summary: async (): Promise<{ waiting: number; nextTryAt: string | null }> => {
      const row = await db
        .selectFrom('door_access_outbox')
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('next_try_at').as('next')])
        .executeTakeFirstOrThrow();
      return { waiting: Number(row.n), nextTryAt: row.next ?? null };
    },
  };
}
export type DoorAccessOutboxRepository = ReturnType<typeof doorAccessOutboxRepository>;
