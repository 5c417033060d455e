import crypto from 'node:crypto';
import { sql } from 'kysely';
import { storedTables, type Store } from './store-tables';

/** Each table's row count and a digest of its rows: two snapshots differ where anything was written. */
export type DatabaseSnapshot = ReadonlyMap<string, string>;

/** The tables of a store (the product's database or the emulator's; see `storedTables`), less `exempt`. */
export async function tablesOf<T>(store: Store<T>, exempt: readonly string[] = []): Promise<string[]> {
  return [...(await storedTables(store)).keys()].filter((name) => !exempt.includes(name)).sort();
}

/** Columns a snapshot leaves out, by table: what a read writes by design (a session's `last_seen_at`). */
export type IgnoredColumns = Readonly<Record<string, readonly string[]>>;

/**
 * Reads every row of `tables` (fine for a test's small database). Rows are sorted, so the engine's
 * order does not matter. PostgreSQL digests the rows itself, in one statement: a query per table, each
 * a round trip, made the fuzz run's snapshot after every refused write most of its time there.
 */
export async function snapshotOf<T>(store: Store<T>, tables: readonly string[], ignored: IgnoredColumns = {}): Promise<DatabaseSnapshot> {
  if (store.engine === 'postgres') {
    if (tables.length === 0) return new Map();
    const perTable = tables.map((table) => {
      const row = ignored[table]?.length ? sql`(to_jsonb(t) - ${sql.val([...ignored[table]])}::text[])::text` : sql`t::text`;
      return sql`select ${table}::text as name, count(*)::int as rows, coalesce(md5(string_agg(${row}, E'\n' order by ${row})), '') as digest from ${sql.table(table)} t`;
    });
    const { rows } = await sql<{ name: string; rows: number; digest: string }>`${sql.join(perTable, sql` union all `)}`.execute(store.db);
    return new Map(rows.map((row) => [row.name, `${row.rows} rows ${row.digest.slice(0, 12)}`]));
  }
  const digests = await Promise.all(
    tables.map(async (table) => {
      const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(store.db);
      const dropped = ignored[table] ?? [];
      const lines = rows.map((row) => JSON.stringify(Object.fromEntries(Object.entries(row).filter(([column]) => !dropped.includes(column))))).sort();
      return [table, `${rows.length} rows ${crypto.createHash('sha1').update(lines.join('\n')).digest('hex').slice(0, 12)}`] as const;
    }),
  );
  return new Map(digests);
}

/** The tables whose rows differ between two snapshots, each with its digest before and after. */
export function changesBetween(before: DatabaseSnapshot, after: DatabaseSnapshot): Array<{ table: string; before: string; after: string }> {
  return [...after].filter(([table, digest]) => before.get(table) !== digest).map(([table, digest]) => ({ table, before: before.get(table) ?? 'absent', after: digest }));
}
