import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type ColumnDefinitionBuilder, type Dialect } from 'kysely';

/**
 * The only engine-specific code: how to connect, and the few DDL spellings that differ between
 * engines. Adding PostgreSQL means a second branch here, nothing in features or migrations.
 */
export type Engine = 'sqlite';

export interface EngineDdl {
  /** An auto-incrementing integer primary key. */
  id: (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;
}

export interface Connection {
  engine: Engine;
  dialect: Dialect;
  ddl: EngineDdl;
}

export function connect(url: string): Connection {
  const file = url === ':memory:' ? ':memory:' : url.replace(/^file:/, '');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Kysely prepares every query anew; reusing prepared statements by SQL text saves that work per request.
  const statements = new Map<string, SQLite.Statement>();
  const database = {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        if (statements.size < 500) statements.set(text, statement);
      }
      return statement;
    },
  };
  return {
    engine: 'sqlite',
    dialect: new SqliteDialect({ database }),
    ddl: { id: (col) => col.primaryKey().autoIncrement() },
  };
}

export const createKysely = <T>(connection: Connection) => new Kysely<T>({ dialect: connection.dialect });

/** True when a write failed on a UNIQUE constraint (a race the caller reports as 409). */
export const isUniqueViolation = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && 'code' in err && (err as { code: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE';
