import { sql, type Kysely } from 'kysely';
import type { Engine } from '../db/engine';

/** An open store: the product's database (`Database`) or the Kisi emulator's (`EmulatorDatabase`). */
export interface Store<T> {
  db: Kysely<T>;
  engine: Engine;
}

export interface StoredColumn {
  name: string;
  nullable: boolean;
}

/** The migrators' own bookkeeping (the product's, and the emulator's names for its own). */
const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock', 'kisi_emu_migration', 'kisi_emu_migration_lock']);

/**
 * The tables the store's migrations made, each with its columns in order, as the engine itself
 * reports them: SQLite's `pragma_table_list` and `pragma_table_info`, PostgreSQL's
 * `information_schema` for the store's own schema (the first of its search path). Not the
 * migrators' bookkeeping, nor the text indexes' own storage: SQLite's full-text index tables (virtual
 * and shadow tables that `EngineDdl.textIndex` keeps beside a table) and PostgreSQL's tsvector
 * columns (`EngineDdl.rankedTextIndex`'s words, generated from the text).
 * A primary key counts as NOT NULL: PostgreSQL makes it so, and SQLite's one exception (NULL in a
 * key that is not an integer) is a bug it keeps for compatibility, never something a row here holds.
 */
export async function storedTables<T>(store: Store<T>): Promise<Map<string, StoredColumn[]>> {
  const tables = new Map<string, StoredColumn[]>();
  if (store.engine === 'sqlite') {
    const { rows: names } = await sql<{ name: string }>`select name from pragma_table_list where schema = 'main' and type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(store.db);
    for (const { name } of names) {
      if (BOOKKEEPING.has(name)) continue;
      const { rows } = await sql<{ name: string; notnull: number; pk: number }>`select name, "notnull", pk from pragma_table_info(${name}) order by cid`.execute(store.db);
      tables.set(name, rows.map((c) => ({ name: c.name, nullable: c.notnull === 0 && c.pk === 0 })));
    }
    return tables;
  }
  const { rows } = await sql<{ table_name: string; column_name: string; is_nullable: 'YES' | 'NO' }>`
    select c.table_name, c.column_name, c.is_nullable
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = current_schema() and t.table_type = 'BASE TABLE' and c.data_type <> 'tsvector'
    order by c.table_name, c.ordinal_position`.execute(store.db);
  for (const row of rows) {
    if (BOOKKEEPING.has(row.table_name)) continue;
    const columns = tables.get(row.table_name) ?? [];
    columns.push({ name: row.column_name, nullable: row.is_nullable === 'YES' });
    tables.set(row.table_name, columns);
  }
  return tables;
}

/** Tables as `{ table: { column: 'null' | 'not null' } }`, in name order: what two descriptions must agree on, printed readably when they do not. */
export const shapeOf = (tables: ReadonlyMap<string, readonly StoredColumn[]>): Record<string, Record<string, 'null' | 'not null'>> =>
  Object.fromEntries(
    [...tables.keys()].sort().map((table) => [
      table,
      Object.fromEntries([...tables.get(table)!].sort((a, b) => a.name.localeCompare(b.name)).map((c) => [c.name, c.nullable ? 'null' : 'not null'])),
    ]),
  );
