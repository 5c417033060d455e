import { sql } from 'kysely';
import type { GymOwner, OwnerListQuery } from '../../contracts/gym.contract';
import type { Db } from '../../db/database';
import { containsText } from '../../db/engine';
import { paginate } from '../../lib/paginate';

const memberCount = sql<number>`(select count(*) from gym_users where gym_users.owner_id = gym_owners.id)`.as('memberCount');

export function ownersRepository(db: Db) {
  const selectOwners = () =>
    db
      .selectFrom('gym_owners')
      .select(['id', 'name', 'email', 'phone', 'gym_name as gymName', 'created_at as createdAt'])
      .select(memberCount);

  const matching = (query: string) => containsText(['gym_owners.name', 'gym_owners.email', 'gym_owners.gym_name'], query);

  return {
    list: (query: OwnerListQuery) =>
      paginate<GymOwner>(
        query,
        async () => Number((await db.selectFrom('gym_owners').$if(!!query.query, (qb) => qb.where(matching(query.query ?? ''))).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        (limit, offset) => selectOwners().$if(!!query.query, (qb) => qb.where(matching(query.query ?? ''))).orderBy('gym_owners.name').orderBy('gym_owners.id').limit(limit).offset(offset).execute(),
      ),

    find: (id: number): Promise<GymOwner | undefined> => selectOwners().where('id', '=', id).executeTakeFirst(),


    insert: async (owner: { name: string; email: string; phone: string | null; gymName: string; createdAt: string }) => {
      const row = await db
        .insertInto('gym_owners')
        .values({ name: owner.name, email: owner.email, phone: owner.phone, gym_name: owner.gymName, created_at: owner.createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** Deletes only an owner without members, in one statement; answers how many rows went. */
    deleteIfNoMembers: async (id: number): Promise<number> => {
      const result = await db
        .deleteFrom('gym_owners')
        .where('id', '=', id)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('gym_users').select('id').whereRef('gym_users.owner_id', '=', 'gym_owners.id'))))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type OwnersRepository = ReturnType<typeof ownersRepository>;
