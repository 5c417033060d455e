import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { declaredTables } from '../test-support/declared-tables';
import { shapeOf, storedTables } from '../test-support/store-tables';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';
import { openDatabase } from './database';

/**
 * `schema.ts` is written by hand beside the migrations that own the truth: Kysely trusts it, so a
 * column a migration adds and schema.ts lacks (or a NOT NULL it forgets) goes unnoticed until a
 * query fails or a null surprises a caller. Compared here with what the migrations make on this
 * run's engine (the PostgreSQL pass checks the other).
 */
let dir: string;
let target: TestDatabase;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-schema-'));
  target = await createTestDatabase(dir, 'schema');
});
afterAll(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('declares exactly the tables and columns the migrations make, and which columns may be null', async () => {
  const database = await openDatabase(target.url);
  try {
    const stored = shapeOf(await storedTables(database));
    expect(Object.keys(stored).length).toBeGreaterThan(20);
    expect(stored).toEqual(shapeOf(declaredTables(path.join(process.cwd(), 'bff/db/schema.ts'), 'DB')));
  } finally {
    await database.close();
  }
});
