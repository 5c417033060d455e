import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from './database';
import { precompiled } from './precompiled';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

/** A query built once answers each call with that call's values, in their places, on either engine. */
let dir: string;
let target: TestDatabase;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-precompiled-'));
  target = await createTestDatabase(dir, 'precompiled');
  database = await openDatabase(target.url);
  const now = new Date().toISOString();
  await database.db
    .insertInto('gym_owners')
    .values(['Ada', 'Ben', 'Cy', 'Dee', 'Eve'].map((name) => ({ name, email: `${name.toLowerCase()}@gym.test`, gym_name: `${name}'s gym`, phone: null, created_at: now })))
    .execute();
});
afterAll(async () => {
  await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('builds once and runs with each call’s values', async () => {
  let builds = 0;
  const ownersFrom = precompiled(database.db, ({ after, limit }: { after: string; limit: number }) => {
    builds++;
    return database.db.selectFrom('gym_owners').select('name').where('name', '>', after).orderBy('name').limit(limit);
  });
  expect((await ownersFrom.execute({ after: 'Ada', limit: 2 })).map((row) => row.name)).toEqual(['Ben', 'Cy']);
  expect((await ownersFrom.execute({ after: 'Cy', limit: 5 })).map((row) => row.name)).toEqual(['Dee', 'Eve']);
  expect(builds).toBe(1);
});
