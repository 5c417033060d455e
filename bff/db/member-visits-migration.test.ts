import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from './database';
import { connect, createKysely } from './engine';
import { MIGRATIONS } from './migrations/migrations';
import type { DB } from './schema';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

/** Migration 036 gives the members of a venue upgrading their visits from the unlocks already stored, as quarter hours. */
let dir: string;
let target: TestDatabase;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-member-visits-'));
  target = await createTestDatabase(dir, 'membervisits');
});
afterEach(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('fills each member’s visits from their successful unlocks stored before 036, a quarter hour once', async () => {
  const connection = connect(target.url);
  const old = createKysely<DB>(connection);
  await migrateToLatest(old, connection, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '036')));
  const at = '2026-03-01T08:00:00.000Z';
  await sql`insert into gym_owners (name, email, gym_name, created_at) values ('Owner', 'owner@gyms.test', 'Gym', ${at})`.execute(old);
  await sql`insert into gym_users (email, name, owner_id, membership, created_at, updated_at)
    values ('ada@mail.example', 'Ada', 1, 'active', ${at}, ${at}), ('ben@mail.example', 'Ben', 1, 'active', ${at}, ${at})`.execute(old);
  const events: Array<[string, string, string, number]> = [
    ['ada@mail.example', 'lock.unlock', '2026-03-02T08:01:30.123Z', 1],
    ['ada@mail.example', 'lock.unlock', '2026-03-02T08:14:59.999Z', 1],
    ['ada@mail.example', 'lock.unlock', '2026-03-02T19:45:00.000Z', 1],
    ['ada@mail.example', 'lock.unlock', '2026-03-03T07:59:00.000Z', 0],
    ['ada@mail.example', 'lock.lock', '2026-03-03T08:30:00.000Z', 1],
    ['ben@mail.example', 'lock.unlock', '2026-03-04T23:31:00.000Z', 1],
    ['someone@else.example', 'lock.unlock', '2026-03-04T10:00:00.000Z', 1],
  ];
  let n = 0;
  for (const [email, type, createdAt, success] of events) {
    await sql`insert into kisi_events (uuid, type, actor_type, actor_email, success, created_at, received_at, payload)
      values (${`m036-${++n}`}, ${type}, 'User', ${email}, ${success}, ${createdAt}, ${createdAt}, '{}')`.execute(old);
  }
  await connection.close();
  await old.destroy();

  const database = await openDatabase(target.url);
  try {
    const rows = await database.db.selectFrom('member_visits').innerJoin('gym_users', 'gym_users.id', 'member_visits.member_id').select(['gym_users.name', 'member_visits.at']).orderBy('gym_users.name').orderBy('member_visits.at').execute();
    expect(rows.map((r) => [r.name, r.at])).toEqual([
      ['Ada', '2026-03-02T08:00:00.000Z'],
      ['Ada', '2026-03-02T19:45:00.000Z'],
      ['Ben', '2026-03-04T23:30:00.000Z'],
    ]);
  } finally {
    await database.close();
  }
});
