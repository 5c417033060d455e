import { sql, type SqlBool } from 'kysely';
import type { RetentionKind, RetentionRun } from '../../contracts/operations.contract';
import { appMetaValue } from '../../db/app-meta';
import type { Db } from '../../db/database';
import { countEvents } from '../../db/kisi-event-choices';

/**
 * Retention's statements: each purge deletes at most `limit` of a kind's oldest rows older than
 * `cutoff` in one statement (its own transaction), read off an index of the age it goes by (migration
 * 028 and the list indexes before it), so the write lock is held for one small batch at a time. What
 * refers to a purged row goes with it by its foreign key's `cascade` (an order's lines and tickets, a
 * conversation's read marks); a conversation's messages are purged first, a batch at a time, so no
 * one statement takes a long thread with it. The tables are other features' (db/schema.ts); only
 * these deletes and the run's bookkeeping in `app_meta` live here.
 */

/** `app_meta` keys: when the next run is due (taken by one instance), and the last run's outcome (JSON). */
const NEXT_RUN_KEY = 'retention.next_run';
const LAST_RUN_KEY = 'retention.last_run';

/** The last run as kept: its outcome and, per kind it reached, the cut-off and how many rows went. */
export interface StoredRun extends RetentionRun {
  kinds: Partial<Record<RetentionKind, { cutoff: string; purged: number }>>;
}

/** One batch: how many of the kind's rows went, and for files the hashes whose rows went (their bytes may be unused now). */
export interface PurgedBatch {
  purged: number;
  sha256s?: string[];
}

const deleted = (result: { numDeletedRows: bigint } | undefined) => Number(result?.numDeletedRows ?? 0);

export function retentionRepository(db: Db) {
  return {
    /**
     * Door events by when they happened (Kisi's clock), off `kisi_events_created_idx`, counted out of
     * the inbox's filter choices in the same transaction (a door or person with none left goes).
     */
    doorEvents: (cutoff: string, limit: number): Promise<PurgedBatch> =>
      db.transaction().execute(async (trx) => {
        const gone = await trx
          .deleteFrom('kisi_events')
          .where('id', 'in', trx.selectFrom('kisi_events').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(limit))
          .returning(['type', 'object_type', 'object_id', 'actor_name', 'actor_email'])
          .execute();
        await countEvents(trx, gone, -1);
        return { purged: gone.length };
      }),

    /**
     * Who pressed a remote unlock (a staff member's name and email, migration 035) by when it was
     * pressed, off `remote_unlock_requests_at_idx`, at the door events' cut-off: one credited on an
     * event goes with it anyway (cascade); these are those that matched none.
     */
    remoteUnlockRequests: async (cutoff: string, limit: number): Promise<number> =>
      deleted(
        await db
          .deleteFrom('remote_unlock_requests')
          .where('id', 'in', db.selectFrom('remote_unlock_requests').select('id').where('requested_at', '<', cutoff).orderBy('requested_at').limit(limit))
          .executeTakeFirst(),
      ),

    /**
     * Members' visits (their attendance's quarter hours, migration 036) by when they came, off
     * `member_visits_at_idx`: they go with the door events they were kept from (decision 0104).
     * Counted apart: the kind counts door events.
     */
    memberVisits: async (cutoff: string, limit: number): Promise<number> =>
      deleted(
        await db
          .deleteFrom('member_visits')
          .where(
            sql<SqlBool>`(member_id, at) in (${db.selectFrom('member_visits').select(['member_id', 'at']).where('at', '<', cutoff).orderBy('at').limit(limit)})`,
          )
          .executeTakeFirst(),
      ),

    /** Staff chat messages by when they were written, off `messages_chat_created_idx` (a conversation's go with it). */
    chat: async (cutoff: string, limit: number): Promise<PurgedBatch> => ({
      purged: deleted(
        await db
          .deleteFrom('messages')
          .where('id', 'in', db.selectFrom('messages').select('id').where('channel_id', 'is not', null).where('created_at', '<', cutoff).orderBy('created_at').limit(limit))
          .executeTakeFirst(),
      ),
    }),

    /**
     * The messages of conversations idle since before `cutoff`: the conversations are found off
     * `conversations_updated_idx`, their messages off `messages_conversation_idx`. Counted apart:
     * the kind counts conversations.
     */
    conversationMessages: async (cutoff: string, limit: number): Promise<number> =>
      deleted(
        await db
          .deleteFrom('messages')
          .where(
            'id',
            'in',
            db
              .selectFrom('messages')
              .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
              .select('messages.id')
              .where('conversations.updated_at', '<', cutoff)
              .limit(limit),
          )
          .executeTakeFirst(),
      ),

    /** Conversations by their last activity (a message in it moves it), their read marks with them. */
    conversations: async (cutoff: string, limit: number): Promise<PurgedBatch> => ({
      purged: deleted(
        await db
          .deleteFrom('conversations')
          .where('id', 'in', db.selectFrom('conversations').select('id').where('updated_at', '<', cutoff).orderBy('updated_at').limit(limit))
          .executeTakeFirst(),
      ),
    }),

    /**
     * Stored files by when they were uploaded (sent again, a file is dated anew), off
     * `uploads_created_idx`; answers the hashes whose rows went, for the caller to remove the bytes
     * no row holds any more once this has committed.
     */
    files: async (cutoff: string, limit: number): Promise<PurgedBatch> => {
      const rows = await db
        .deleteFrom('uploads')
        .where('id', 'in', db.selectFrom('uploads').select('id').where('created_at', '<', cutoff).orderBy('created_at').limit(limit))
        .returning('sha256')
        .execute();
      return { purged: rows.length, sha256s: [...new Set(rows.map((row) => row.sha256))] };
    },

    /** Whether any stored file still has these bytes. */
    sha256InUse: async (sha256: string) => !!(await db.selectFrom('uploads').select('id').where('sha256', '=', sha256).limit(1).executeTakeFirst()),

    /** Audit entries by when the change was made, off `audit_entries_at_idx`. */
    audit: async (cutoff: string, limit: number): Promise<PurgedBatch> => ({
      purged: deleted(
        await db
          .deleteFrom('audit_entries')
          .where('id', 'in', db.selectFrom('audit_entries').select('id').where('at', '<', cutoff).orderBy('at').limit(limit))
          .executeTakeFirst(),
      ),
    }),

    /**
     * Served and cancelled orders by when they were placed, off `orders_created_idx`, with their lines
     * and tickets (cascade). An order still open is never purged: it is on a runner's board.
     */
    orders: async (cutoff: string, limit: number): Promise<PurgedBatch> => ({
      purged: deleted(
        await db
          .deleteFrom('orders')
          .where(
            'id',
            'in',
            db.selectFrom('orders').select('id').where('created_at', '<', cutoff).where('status', 'in', ['served', 'cancelled']).orderBy('created_at').limit(limit),
          )
          .executeTakeFirst(),
      ),
    }),

    /**
     * The live events log by when each was sent, off `live_events_created_idx`. The newest event always
     * stays: an instance that starts reads the log's last id as where its streams begin.
     */
    liveEvents: async (cutoff: string, limit: number): Promise<PurgedBatch> => ({
      purged: deleted(
        await db
          .deleteFrom('live_events')
          .where(
            'id',
            'in',
            db
              .selectFrom('live_events')
              .select('id')
              .where('created_at', '<', cutoff)
              .where('id', '<', db.selectFrom('live_events').select((eb) => eb.fn.max('id').as('newest')))
              .orderBy('created_at')
              .limit(limit),
          )
          .executeTakeFirst(),
      ),
    }),

    // ---- the runs' bookkeeping (app_meta) ----

    /**
     * Takes the run due at `now` (or the first ever) for this instance, and marks the next one due at
     * `next`: one statement, so of several instances polling at once exactly one gets it.
     */
    async claimRun(now: string, next: string): Promise<boolean> {
      const taken = await db
        .insertInto('app_meta')
        .values({ key: NEXT_RUN_KEY, value: next })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: next }).where('app_meta.value', '<=', now))
        .returning('key')
        .executeTakeFirst();
      return !!taken;
    },
    /** Moves the next run (a failed run is tried again sooner than a day). */
    async setNextRun(at: string): Promise<void> {
      await db
        .insertInto('app_meta')
        .values({ key: NEXT_RUN_KEY, value: at })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value: at }))
        .execute();
    },
    nextRunAt: async (): Promise<string | null> => (await appMetaValue(db, NEXT_RUN_KEY)) ?? null,

    async saveRun(run: StoredRun): Promise<void> {
      const value = JSON.stringify(run);
      await db
        .insertInto('app_meta')
        .values({ key: LAST_RUN_KEY, value })
        .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
        .execute();
    },
    async lastRun(): Promise<StoredRun | null> {
      const value = await appMetaValue(db, LAST_RUN_KEY);
      return value ? (JSON.parse(value) as StoredRun) : null;
    },
  };
}
export type RetentionRepository = ReturnType<typeof retentionRepository>;
