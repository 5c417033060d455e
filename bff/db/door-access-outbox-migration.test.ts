import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from './database';
import { connect, createKysely } from './engine';
import { MIGRATIONS } from './migrations/migrations';
import type { DB } from './schema';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

/**
 * Migration 029 makes the door-access outbox again without its foreign key to the members, so that
 * a deleted member's switch-off can outlive them: the switches owed before it stay owed, as they were.
 */
let dir: string;
let target: TestDatabase;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-outbox-'));
  target = await createTestDatabase(dir, 'outbox');
});
afterEach(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('keeps the switches owed before 029, and lets a switch-off outlive its member after it', async () => {
  const connection = connect(target.url);
  const old = createKysely<DB>(connection);
  await migrateToLatest(old, connection, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '029')));
  const at = '2026-11-29T08:00:00.000Z';
  await sql`insert into gym_owners (name, email, gym_name, created_at) values ('Owner', 'owner@gyms.test', 'Gym', ${at})`.execute(old);
  await sql`insert into gym_users (email, name, owner_id, membership, created_at, updated_at) values ('ada@mail.example', 'Ada', 1, 'paused', ${at}, ${at}), ('bo@mail.example', 'Bo', 1, 'active', ${at}, ${at})`.execute(old);
  await sql`insert into door_access_outbox (member_id, want_enabled, version, attempts, next_try_at, last_error, created_at, claimed_until)
    values (1, 0, 3, 2, ${at}, 'Kisi is unreachable', ${at}, ${at})`.execute(old);
  await connection.close();
  await old.destroy();

  const database = await openDatabase(target.url);
  try {
    expect(await database.db.selectFrom('door_access_outbox').selectAll().execute()).toEqual([
      { member_id: 1, want_enabled: 0, version: 3, attempts: 2, next_try_at: at, last_error: 'Kisi is unreachable', created_at: at, claimed_until: at, email: null },
    ]);
    // The member goes; what is owed for them stays.
    await database.db.deleteFrom('gym_users').where('id', '=', 1).execute();
    expect(await database.db.selectFrom('door_access_outbox').select('member_id').execute()).toEqual([{ member_id: 1 }]);
  } finally {
    await database.close();
  }
});
