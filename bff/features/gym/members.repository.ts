import type { ExpressionBuilder } from 'kysely';
import type { AccessSync, GymMember, Membership, MemberListQuery, MemberSort } from '../../contracts/gym.contract';
import type { Db } from '../../db/database';
import type { DB } from '../../db/schema';
import { containsText } from '../../db/engine';
import { paginate } from '../../lib/paginate';
import { lastVisitOfMember } from './visits.repository';

type MemberRow = Omit<GymMember, 'accessSync'> & {
  syncState: AccessSync['state'];
  syncError: string | null;
  syncAt: string | null;
  confirmedEnabled: number | null;
  confirmedAt: string | null;
  waitAttempts: number | null;
  waitNextTryAt: string | null;
  waitError: string | null;
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

const toMember = ({ syncState, syncError, syncAt, confirmedEnabled, confirmedAt, waitAttempts, waitNextTryAt, waitError, ...row }: MemberRow): GymMember => ({
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

type Filters = Pick<MemberListQuery, 'query' | 'ownerId' | 'membership'>;

/** A member in the list: with when they last came in (null: never). */
export type ListedMember = GymMember & { lastVisitAt: string | null };

export function membersRepository(db: Db) {
  const selectMembers = () =>
    db
      .selectFrom('gym_users as u')
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
        'u.access_sync_state as syncState',
        'u.access_sync_error as syncError',
        'u.access_sync_at as syncAt',
        'u.kisi_access_enabled as confirmedEnabled',
        'u.kisi_confirmed_at as confirmedAt',
        'w.attempts as waitAttempts',
        'w.next_try_at as waitNextTryAt',
        'w.last_error as waitError',
        'u.created_at as createdAt',
        'u.updated_at as updatedAt',
      ]);

  const filtered = (filters: Filters) => (eb: ExpressionBuilder<DB & { u: DB['gym_users'] }, 'u'>) => {
    const conditions = [];
    if (filters.query) {
      conditions.push(containsText(['u.name', 'u.email'], filters.query));
    }
    if (filters.ownerId !== undefined) conditions.push(eb('u.owner_id', '=', filters.ownerId));
    if (filters.membership) conditions.push(eb('u.membership', '=', filters.membership));
    return eb.and(conditions);
  };
  // No WHERE at all without filters: `WHERE 1 = 1` would stop SQLite from counting off the index.
  const hasFilters = (filters: Filters) => !!filters.query || filters.ownerId !== undefined || !!filters.membership;

  const countOf = (filters: Filters) => db.selectFrom('gym_users as u').$if(hasFilters(filters), (qb) => qb.where(filtered(filters))).select((eb) => eb.fn.countAll<number>().as('n'));
  // By name the page walks `gym_users_name_idx` and looks up the last visit of its rows only; by
  // last visit every matching member's is looked up (one index probe each) and sorted. NULLS LAST
  // (SQLite and PostgreSQL alike) puts members who never came at the end in both directions.
  const pageOf = (filters: Filters, sort: MemberSort, limit: number, offset: number) =>
    selectMembers()
      .select((eb) => lastVisitOfMember(eb).as('lastVisitAt'))
      .$if(hasFilters(filters), (qb) => qb.where(filtered(filters)))
      .$if(sort !== 'name', (qb) => qb.orderBy((eb) => lastVisitOfMember(eb), (ob) => (sort === '-last_visit' ? ob.desc() : ob.asc()).nullsLast()))
      .orderBy('u.name')
      .orderBy('u.id')
      .limit(limit)
      .offset(offset);

  return {
    list: (query: MemberListQuery) =>
      paginate<ListedMember>(
        query,
        async () => Number((await countOf(query).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await pageOf(query, query.sort, limit, offset).execute()).map(({ lastVisitAt, ...row }) => ({ ...toMember(row), lastVisitAt: lastVisitAt ?? null })),
      ),

    /** Whether a member has this (lower-cased) email now. */
    emailInUse: async (email: string) => !!(await db.selectFrom('gym_users').select('id').where('email', '=', email).executeTakeFirst()),

    find: async (id: number): Promise<GymMember | undefined> => {
      const row = await selectMembers().where('u.id', '=', id).executeTakeFirst();
      return row && toMember(row);
    },

    insert: async (member: { email: string; name: string; ownerId: number; membership: Membership; sync: AccessSyncRecord; now: string }) => {
      const row = await db
        .insertInto('gym_users')
        .values({
          email: member.email,
          name: member.name,
          owner_id: member.ownerId,
          membership: member.membership,
          ...syncColumns(member.sync),
          created_at: member.now,
          updated_at: member.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    update: (id: number, patch: { name?: string; ownerId?: number; membership?: Membership; sync?: AccessSyncRecord; now: string }) =>
      db
        .updateTable('gym_users')
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.ownerId !== undefined ? { owner_id: patch.ownerId } : {}),
          ...(patch.membership !== undefined ? { membership: patch.membership } : {}),
          ...(patch.sync !== undefined ? syncColumns(patch.sync) : {}),
          updated_at: patch.now,
        })
        .where('id', '=', id)
        .execute(),

    recordAccessSync: (id: number, sync: AccessSyncRecord) => db.updateTable('gym_users').set(syncColumns(sync)).where('id', '=', id).execute(),
    /** What Kisi said the member's access is, without changing the sync's state (a newer switch is still owed). */
    recordConfirmed: (id: number, enabled: boolean, at: string) => db.updateTable('gym_users').set({ kisi_access_enabled: enabled ? 1 : 0, kisi_confirmed_at: at }).where('id', '=', id).execute(),

    /** Members whose door access is not confirmed (a switch owed or failed) and who have no switch queued. */
    unconfirmedWithoutQueued: async (): Promise<Array<{ id: number; membership: Membership }>> =>
      db
        .selectFrom('gym_users as u')
        .leftJoin('door_access_outbox as w', 'w.member_id', 'u.id')
        .where('u.access_sync_state', 'in', ['pending', 'failed'])
        .where('w.member_id', 'is', null)
        .select(['u.id', 'u.membership'])
        .execute(),

    delete: async (id: number) => Number((await db.deleteFrom('gym_users').where('id', '=', id).executeTakeFirst()).numDeletedRows),
  };
}
export type MembersRepository = ReturnType<typeof membersRepository>;
