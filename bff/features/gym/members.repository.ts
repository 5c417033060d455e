import { sql, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import type { AccessSync, GymMember, Membership, MemberAccessState, MemberListQuery } from '../../contracts/gym.contract';
import type { Database, Db } from '../../db/database';
import type { DB } from '../../db/schema';
import type { Page } from '../../contracts/common.contract';
import { keysetPaginate, type KeysetOrder } from '../../lib/paginate';
import { fillVisitsOf } from '../../db/member-visits';
import { newestVisitOf } from './visits.repository';

type MemberRow = Omit<GymMember, 'accessSync'> & {
  syncState: AccessSync['state'];
  syncError: string | null;
  syncAt: string | null;
  confirmedEnabled: number | null;
  confirmedAt: string | null;
  waitAttempts: number | null;
  waitNextTryAt: string | null;
  waitError: string | null;
  lastVisitAt: string | null;
};

export const wantsDoorAccess = (membership: Membership) => membership === 'active';

/** What is stored of a door-access switch: its outcome, or that one is still due; `confirmed`: what Kisi said the member's access is now. */
export interface AccessSyncRecord {
  state: AccessSync['state'];
  error: string | null;
  at: string;
  confirmed?: boolean;
}
const syncColumns = (sync: AccessSyncRecord) => ({
  access_sync_state: sync.state,
  access_sync_error: sync.error,
  access_sync_at: sync.at,
  ...(sync.confirmed !== undefined ? { kisi_access_enabled: sync.confirmed ? 1 : 0, kisi_confirmed_at: sync.at } : {}),
});

const toMember = ({ syncState, syncError, syncAt, confirmedEnabled, confirmedAt, waitAttempts, waitNextTryAt, waitError, lastVisitAt: _lastVisitAt, ...row }: MemberRow): GymMember => ({
  ...row,
  accessSync: {
    state: syncState,
    wantEnabled: wantsDoorAccess(row.membership),
    error: syncError,
    at: syncAt,
    confirmedEnabled: confirmedEnabled === null ? null : confirmedEnabled === 1,
    confirmedAt,
    waiting: waitNextTryAt === null ? null : { attempts: waitAttempts ?? 0, nextTryAt: waitNextTryAt, lastError: waitError },
  },
});

type Filters = Pick<MemberListQuery, 'query' | 'ownerId' | 'membership' | 'access'>;

/**
 * A member's door access as recorded (the list's filter, `MEMBER_ACCESS_STATES`): written exactly as
 * migration 036's indexes `gym_users_door_name_idx` and `gym_users_door_visit_idx` spell it, over
 * the list's `u`, so both engines filter and order along them.
 */
const doorStateColumn = sql<MemberAccessState>`(case when ${sql.ref('u.access_sync_state')} = 'no_kisi_user' then 'no_account'
 when ${sql.ref('u.access_sync_state')} = 'failed' then 'failed'
 when ${sql.ref('u.access_sync_state')} = 'pending' then 'waiting'
 when ${sql.ref('u.kisi_access_enabled')} = 1 then 'open'
 when ${sql.ref('u.kisi_access_enabled')} = 0 then 'closed'
 else 'unconfirmed' end)`;

/** A member in the list: with when they last came in (null: never). */
export type ListedMember = GymMember & { lastVisitAt: string | null };
const toListed = (row: MemberRow): ListedMember => ({ ...toMember(row), lastVisitAt: row.lastVisitAt });

/** Rows one statement writes or reads by id at most (both engines' bound-parameter limits are far above it). */
const CHUNK = 200;

/** The list by name, the Next and Previous links' cursor: `gym_users_name_idx` (and the filters' indexes) end in these. */
const BY_NAME: KeysetOrder = { direction: 'asc', columns: [['u.name', 'text'], ['u.id', 'integer']] };

/**
 * `containsMatch`: the engine's search through the members' trigram index (migration 033). A
 * repository made inside a transaction is given the database's.
 */
export function membersRepository(db: Db, containsMatch: Database['containsMatch']) {
  /** Members (`u`: a list's, narrowed by its filters, or one) with their owner and their door switch waiting. */
  const withDetails = <O>(members: SelectQueryBuilder<DB & { u: DB['gym_users'] }, 'u', O>) =>
    members
      .innerJoin('gym_owners as o', 'o.id', 'u.owner_id')
      .leftJoin('door_access_outbox as w', 'w.member_id', 'u.id')
      .select([
        'u.id',
        'u.email',
        'u.name',
        'u.owner_id as ownerId',
        'o.name as ownerName',
        'o.gym_name as gymName',
        'u.membership',
        'u.paused_until as pausedUntil',
        'u.access_sync_state as syncState',
        'u.access_sync_error as syncError',
        'u.access_sync_at as syncAt',
        'u.kisi_access_enabled as confirmedEnabled',
        'u.kisi_confirmed_at as confirmedAt',
        'w.attempts as waitAttempts',
        'w.next_try_at as waitNextTryAt',
        'w.last_error as waitError',
        'u.last_visit_at as lastVisitAt',
        'u.created_at as createdAt',
        'u.updated_at as updatedAt',
      ]);

  const filtered = (filters: Filters) => (eb: ExpressionBuilder<DB & { u: DB['gym_users'] }, 'u'>) => {
    const conditions = [];
    if (filters.query) {
      conditions.push(containsMatch('gym_users', ['u.name', 'u.email'], filters.query, 'u.id'));
    }
    if (filters.ownerId !== undefined) conditions.push(eb('u.owner_id', '=', filters.ownerId));
    if (filters.membership) conditions.push(eb('u.membership', '=', filters.membership));
    if (filters.access) conditions.push(eb(doorStateColumn, '=', filters.access));
    return eb.and(conditions);
  };
  // No WHERE at all without filters: `WHERE 1 = 1` would stop SQLite from counting off the index.
  const hasFilters = (filters: Filters) => !!filters.query || filters.ownerId !== undefined || !!filters.membership || !!filters.access;

  const matching = (filters: Filters) => db.selectFrom('gym_users as u').$if(hasFilters(filters), (qb) => qb.where(filtered(filters)));
  const selectMembers = () => withDetails(db.selectFrom('gym_users as u'));
  const countOf = async (members: ReturnType<typeof matching>) => Number((await members.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  /**
   * By last visit (kept on the row, migration 034): the members who came, newest or oldest first
   * along `gym_users_last_visit_idx`, then those who never came by name. Read by page number: the
   * list holds the members, not the years of their visits.
   */
  async function byLastVisit(query: MemberListQuery, direction: 'asc' | 'desc'): Promise<Page<ListedMember>> {
    const { page, pageSize } = query;
    const came = () => matching(query).where('u.last_visit_at', 'is not', null);
    const [total, visited] = await Promise.all([countOf(matching(query)), countOf(came())]);
    const offset = page * pageSize;
    const rows = offset < visited ? await withDetails(came()).orderBy('u.last_visit_at', direction).orderBy('u.id', direction).limit(pageSize).offset(offset).execute() : [];
    const rest = pageSize - rows.length;
    if (rest > 0 && offset + rows.length < total) {
      rows.push(...(await withDetails(matching(query).where('u.last_visit_at', 'is', null)).orderBy('u.name').orderBy('u.id').limit(rest).offset(Math.max(0, offset - visited)).execute()));
    }
    return { items: rows.map(toListed), page, pageSize, total };
  }

  return {
    /**
     * By name (the default) a page is read from its cursor along `gym_users_name_idx`, the count
     * stopping at 1,000 past it; by last visit by its number (see `byLastVisit`).
     */
    list: (query: MemberListQuery): Promise<Page<ListedMember>> =>
      query.sort === 'name'
        ? keysetPaginate(db, query, { matching: () => matching(query), order: BY_NAME, select: withDetails, toItem: toListed })
        : byLastVisit(query, query.sort === '-last_visit' ? 'desc' : 'asc'),

    /** Whether a member has this (lower-cased) email now. */
    emailInUse: async (email: string) => !!(await db.selectFrom('gym_users').select('id').where('email', '=', email).executeTakeFirst()),

    find: async (id: number): Promise<GymMember | undefined> => {
      const row = await selectMembers().where('u.id', '=', id).executeTakeFirst();
      return row && toMember(row);
    },

    /**
     * Inside a transaction, first: holds the member's row until the transaction ends (PostgreSQL's row
     * lock, waiting for a write to it that has not committed; SQLite has one writer anyway), so what is
     * read of them after it stays true until the transaction's own writes. False: no such member.
     */
    lock: async (id: number): Promise<boolean> =>
      Number((await db.updateTable('gym_users').set((eb) => ({ updated_at: eb.ref('updated_at') })).where('id', '=', id).executeTakeFirst()).numUpdatedRows) === 1,

    /** The members of these ids, as `find` reads one (any order; a few hundred a statement). */
    findMany: async (ids: readonly number[]): Promise<GymMember[]> => {
      const found: GymMember[] = [];
      for (let i = 0; i < ids.length; i += CHUNK) found.push(...(await selectMembers().where('u.id', 'in', ids.slice(i, i + CHUNK)).execute()).map(toMember));
      return found;
    },

    /**
     * Adds members, a few hundred a statement (a member by hand, or a CSV import's thousands), with
     * their visits from the door events of their emails already stored (a returning member, a Kisi
     * user first). Answers their ids in the order given.
     */
    insertMany: async (members: ReadonlyArray<{ email: string; name: string; ownerId: number; membership: Membership; sync: AccessSyncRecord; now: string }>): Promise<number[]> => {
      const idOf = new Map<string, number>();
      for (let i = 0; i < members.length; i += CHUNK) {
        const rows = await db
          .insertInto('gym_users')
          .values(
            members.slice(i, i + CHUNK).map((member) => ({
              email: member.email,
              name: member.name,
              owner_id: member.ownerId,
              membership: member.membership,
              ...syncColumns(member.sync),
              last_visit_at: newestVisitOf(db, member.email),
              created_at: member.now,
              updated_at: member.now,
            })),
          )
          .returning(['id', 'email'])
          .execute();
        for (const row of rows) idOf.set(row.email, row.id);
      }
      const ids = members.map((member) => idOf.get(member.email)!);
      await fillVisitsOf(db, ids);
      return ids;
    },

    update: (id: number, patch: { name?: string; ownerId?: number; membership?: Membership; pausedUntil?: string | null; sync?: AccessSyncRecord; now: string }) =>
      db
        .updateTable('gym_users')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.ownerId !== undefined ? { owner_id: patch.ownerId } : {}),
          ...(patch.membership !== undefined ? { membership: patch.membership } : {}),
          ...(patch.pausedUntil !== undefined ? { paused_until: patch.pausedUntil } : {}),
          ...(patch.sync !== undefined ? syncColumns(patch.sync) : {}),
          updated_at: patch.now,
        })
        .where('id', '=', id)
        .execute(),

    recordAccessSync: (id: number, sync: AccessSyncRecord) => db.updateTable('gym_users').set(syncColumns(sync)).where('id', '=', id).execute(),
    /** What Kisi said the member's access is, without changing the sync's state (a newer switch is still owed). */
    recordConfirmed: (id: number, enabled: boolean, at: string) => db.updateTable('gym_users').set({ kisi_access_enabled: enabled ? 1 : 0, kisi_confirmed_at: at }).where('id', '=', id).execute(),
    /**
     * What Kisi said when the desk looked (`asked`: when the question went), kept as what it last
     * confirmed while no switch is owed and nothing newer was recorded: a switch queued, sent or
     * confirmed while the answer was on its way is newer than this look and leaves the row as it is.
     */
    recordSeenInKisi: (id: number, enabled: boolean, { asked, at }: { asked: string; at: string }) =>
      db
        .updateTable('gym_users')
        .set({ kisi_access_enabled: enabled ? 1 : 0, kisi_confirmed_at: at })
        .where('id', '=', id)
        .where('access_sync_state', '!=', 'pending')
        .where((eb) => eb.or([eb('kisi_confirmed_at', 'is', null), eb('kisi_confirmed_at', '<', asked)]))
        .where((eb) => eb.or([eb('access_sync_at', 'is', null), eb('access_sync_at', '<', asked)]))
        .where('updated_at', '<', asked)
        .where(({ not, exists, selectFrom }) => not(exists(selectFrom('door_access_outbox').select('member_id').where('door_access_outbox.member_id', '=', id))))
        .executeTakeFirst()
        .then((result) => Number(result.numUpdatedRows) > 0),

    /** Members whose door access is not confirmed (a switch owed or failed) and who have no switch queued. */
    unconfirmedWithoutQueued: async (): Promise<Array<{ id: number; membership: Membership }>> =>
      db
        .selectFrom('gym_users as u')
        .leftJoin('door_access_outbox as w', 'w.member_id', 'u.id')
        .where('u.access_sync_state', 'in', ['pending', 'failed'])
        .where('w.member_id', 'is', null)
        .select(['u.id', 'u.membership'])
        .execute(),

    /** Paused members whose pause ends on `today` (the venue's day) or before: the job's work, a batch at a time along `gym_users_paused_until_idx`. */
    pausesDue: async (today: string, limit: number): Promise<number[]> =>
      (
        await db.selectFrom('gym_users').select('id').where('paused_until', '<=', today).where('membership', '=', 'paused').orderBy('paused_until').orderBy('id').limit(limit).execute()
      ).map((row) => row.id),

    /**
     * The member's pause ends if it is still due: one conditional update, so of two instances (or the
     * job and a hand-made change) racing for it exactly one changes the row; true for that one.
     */
    resumeIfDue: async (id: number, today: string, at: string): Promise<boolean> => {
      const result = await db
        .updateTable('gym_users')
        .set({ membership: 'active', paused_until: null, updated_at: at })
        .where('id', '=', id)
        .where('membership', '=', 'paused')
        .where('paused_until', '<=', today)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    delete: async (id: number) => Number((await db.deleteFrom('gym_users').where('id', '=', id).executeTakeFirst()).numDeletedRows),
  };
}
export type MembersRepository = ReturnType<typeof membersRepository>;
