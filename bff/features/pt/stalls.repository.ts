import { sql, type Selectable } from 'kysely';
import type { MenuItem, Stall, StallListQuery, StallWithItems } from '../../contracts/pt.contract';
import type { WeeklyHours } from '../../contracts/stall-hours.contract';
import type { Db } from '../../db/database';
import { containsText } from '../../db/engine';
import type { MenuItemsTable } from '../../db/schema';
import { paginate } from '../../lib/paginate';
import { OPEN_STATUSES } from './orders.repository';

const toItem = (row: Selectable<MenuItemsTable>): MenuItem => ({
  id: row.id,
  stallId: row.stall_id,
  name: row.name,
  description: row.description,
  category: row.category,
  priceCents: row.price_cents,
  soldOut: row.sold_out === 1,
  allergens: JSON.parse(row.allergens) as string[],
});

const itemCount = sql<number>`(select count(*) from menu_items where menu_items.stall_id = stalls.id)`.as('itemCount');

export interface StallFields {
  name?: string;
  description?: string | null;
  cuisine?: string | null;
  status?: Stall['status'];
  hours?: WeeklyHours | null;
}

/** A stall as read (its hours stored as JSON text). */
const toStall = ({ hours, ...row }: Omit<Stall, 'hours'> & { hours: string | null }): Stall => ({ ...row, hours: hours === null ? null : (JSON.parse(hours) as WeeklyHours) });

export interface ItemFields {
  name?: string;
  description?: string | null;
  category?: string;
  priceCents?: number;
  soldOut?: boolean;
  allergens?: string[];
}

/** Takes a lock named `name` until the transaction `db` ends; true when it took one (PostgreSQL; SQLite has one writer anyway). */
export type TransactionLock = (db: Db, name: string) => Promise<boolean>;

/** Stalls and their menu items. */
export function stallsRepository(db: Db, lock: TransactionLock = async () => false) {
  const stalls = () =>
    db
      .selectFrom('stalls')
      .select(['id', 'name', 'description', 'cuisine', 'status', 'hours', 'created_at as createdAt', 'updated_at as updatedAt'])
      .select(itemCount);
  // A menu reads in the order its keeper wrote it: categories as first used, items as added.
  const categoryFirstUsed = sql<number>`(select min(m.id) from menu_items m where m.stall_id = menu_items.stall_id and m.category = menu_items.category)`;
  const itemsOf = (stallIds: number[]) =>
    stallIds.length === 0
      ? Promise.resolve([])
      : db.selectFrom('menu_items').selectAll().where('stall_id', 'in', stallIds).orderBy(categoryFirstUsed).orderBy('id').execute();
  const withItems = async (list: Stall[]): Promise<StallWithItems[]> => {
    const items = (await itemsOf(list.map((s) => s.id))).map(toItem);
    return list.map((stall) => ({ ...stall, items: items.filter((item) => item.stallId === stall.id) }));
  };

  return {
    list: (query: StallListQuery) => {
      const matching = query.query ? containsText(['stalls.name', 'stalls.cuisine', 'stalls.description'], query.query) : sql<boolean>`1 = 1`;
      return paginate<Stall>(
        query,
        async () => Number((await db.selectFrom('stalls').where(matching).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
        async (limit, offset) => (await stalls().where(matching).orderBy('name').orderBy('id').limit(limit).offset(offset).execute()).map(toStall),
      );
    },

    find: async (id: number): Promise<Stall | undefined> => {
      const row = await stalls().where('id', '=', id).executeTakeFirst();
      return row && toStall(row);
    },

    findWithItems: async (id: number): Promise<StallWithItems | undefined> => {
      const row = await stalls().where('id', '=', id).executeTakeFirst();
      return row && (await withItems([toStall(row)]))[0];
    },

    /** Every stall with every item, by name, for the diners' menu (which says which take orders now). */
    allWithItems: async (): Promise<StallWithItems[]> => withItems((await stalls().orderBy('name').orderBy('id').execute()).map(toStall)),

    insert: async (fields: { name: string; description: string | null; cuisine: string | null }, now: string) =>
      (await db.insertInto('stalls').values({ ...fields, status: 'open', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow()).id,

    /** True when the stall exists (and was changed). */
    update: async (id: number, { hours, ...fields }: StallFields, now: string) =>
      Number(
        (
          await db
            .updateTable('stalls')
            .set({ ...fields, ...(hours === undefined ? {} : { hours: hours === null ? null : JSON.stringify(hours) }), updated_at: now })
            .where('id', '=', id)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,

    /**
     * Inside a transaction: holds these stalls against a delete until it ends (an order being placed
     * and a stall being deleted take turns). In id order, so two orders never wait on each other.
     * True when a lock was taken, so another transaction may have committed while this one waited.
     */
    lockStalls: async (ids: number[]): Promise<boolean> => {
      let waited = false;
      for (const id of [...new Set(ids)].sort((a, b) => a - b)) waited = (await lock(db, `stall:${id}`)) || waited;
      return waited;
    },

    /**
     * Inside a transaction, after `lockStalls([id])`: deletes the stall unless one of its lines is
     * in an order not yet served (the check reads what committed while it waited for the lock).
     */
    deleteIfNoOpenOrders: async (id: number) =>
      Number(
        (
          await db
            .deleteFrom('stalls')
            .where('id', '=', id)
            .where(({ not, exists, selectFrom }) =>
              not(
                exists(
                  selectFrom('order_lines')
                    .innerJoin('orders', 'orders.id', 'order_lines.order_id')
                    .select('order_lines.id')
                    .where('order_lines.stall_id', '=', id)
                    .where('orders.status', 'in', OPEN_STATUSES),
                ),
              ),
            )
            .executeTakeFirst()
        ).numDeletedRows,
      ) > 0,

    findItem: async (id: number): Promise<MenuItem | undefined> => {
      const row = await db.selectFrom('menu_items').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toItem(row);
    },

    /** The items of a cart with their stall, in one read. */
    itemsForOrder: (ids: number[]) =>
      ids.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom('menu_items')
            .innerJoin('stalls', 'stalls.id', 'menu_items.stall_id')
            .select([
              'menu_items.id',
              'menu_items.name',
              'menu_items.price_cents as priceCents',
              'menu_items.sold_out as soldOut',
              'menu_items.allergens',
              'stalls.id as stallId',
              'stalls.name as stallName',
              'stalls.status as stallStatus',
              'stalls.hours as stallHours',
            ])
            .where('menu_items.id', 'in', ids)
            .execute(),

    insertItem: async (stallId: number, item: Required<Omit<ItemFields, 'soldOut'>>, now: string) =>
      (
        await db
          .insertInto('menu_items')
          .values({
            stall_id: stallId,
            name: item.name,
            description: item.description,
            category: item.category,
            price_cents: item.priceCents,
            sold_out: 0,
            allergens: JSON.stringify(item.allergens),
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,

    updateItem: async (id: number, fields: ItemFields, now: string) =>
      Number(
        (
          await db
            .updateTable('menu_items')
            .set({
              name: fields.name,
              description: fields.description,
              category: fields.category,
              price_cents: fields.priceCents,
              sold_out: fields.soldOut === undefined ? undefined : fields.soldOut ? 1 : 0,
              allergens: fields.allergens && JSON.stringify(fields.allergens),
              updated_at: now,
            })
            .where('id', '=', id)
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0,

    deleteItem: async (id: number) => Number((await db.deleteFrom('menu_items').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0,
  };
}
export type StallsRepository = ReturnType<typeof stallsRepository>;
