import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';

/**
 * Where a test's database lives. By default a SQLite file in the test's own temporary directory;
 * with TEST_DATABASE_URL=postgres://… (as `.ci/run` sets it through `npm run postgres`), a new
 * PostgreSQL database on that server, dropped again by `drop()`. Every test file so gets a database
 * of its own on either engine.
 */
export interface TestDatabase {
  url: string;
  drop: () => Promise<void>;
}

export const testEngine = (): 'sqlite' | 'postgres' => (process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');

export async function createTestDatabase(dir: string, name = 'test'): Promise<TestDatabase> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server) return { url: `file:${path.join(dir, `${name}.db`)}`, drop: async () => {} };
  const database = `test_${name.replace(/\W/g, '_')}_${crypto.randomBytes(6).toString('hex')}`.toLowerCase();
  await withClient(server, (client) => client.query(`create database ${pg.escapeIdentifier(database)}`));
  const url = new URL(server);
  url.pathname = `/${database}`;
  return {
    url: url.toString(),
    drop: () => withClient(server, (client) => client.query(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`)).then(() => {}),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
