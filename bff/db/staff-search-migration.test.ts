import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { migrateToLatest, openDatabase } from './database';
import { connect, createKysely } from './engine';
import { MIGRATIONS } from './migrations/migrations';
import type { DB } from './schema';
import { seedIfEmpty } from './seed';
import { conversationsRepository } from '../features/conversations/conversations.repository';
import { conversationsSeeder } from '../features/conversations/conversations.seed';
import { auditRepository } from '../features/audit/audit.repository';
import { createTestDatabase, type TestDatabase } from '../test-support/test-database';

/**
 * Migration 032 gives the conversations written before it their search words, and the trail written
 * before it its person index: a venue upgrading finds what it could find before.
 */
let dir: string;
let target: TestDatabase;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-staff-search-'));
  target = await createTestDatabase(dir, 'staffsearch');
});
afterEach(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('finds the conversations and the trail written before 032 by a guest’s words, name or email, and a change by who made it', async () => {
  const connection = connect(target.url);
  const old = createKysely<DB>(connection);
  await migrateToLatest(old, connection, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '032')));
  const at = '2026-11-29T08:00:00.000Z';
  await sql`insert into conversations (guest_name, guest_table, guest_email, guest_token_hash, status, created_at, updated_at)
    values ('Rosa Ortiz', 3, 'rosa@mail.example', 'h1', 'open', ${at}, ${at}), ('Sam', 4, null, 'h2', 'resolved', ${at}, ${at})`.execute(old);
  await sql`insert into messages (conversation_id, author_kind, author_name, body, created_at)
    values (1, 'guest', 'Rosa Ortiz', 'Is the pool open late?', ${at}), (2, 'guest', 'Sam', 'Spilled soup at table 4', ${at}), (2, 'staff', 'Dana', 'Mop on its way', ${at})`.execute(old);
  await sql`insert into audit_entries (at, actor_id, actor_email, actor_name, actor_role, kind, action, subject, changes)
    values (${at}, 1, 'dana@frontdesk.test', 'Dana Desk', 'staff', 'member', 'paused', 'Ada', '[]')`.execute(old);
  await connection.close();
  await old.destroy();

  const database = await openDatabase(target.url);
  try {
    const conversations = conversationsRepository(database.db, database.containsMatch);
    const found = async (query: string) => (await conversations.list(1, { page: 0, pageSize: 10, status: 'all', assignee: 'anyone', query })).items.map((c) => c.guestName);
    expect(await found('pool open')).toEqual(['Rosa Ortiz']);
    expect(await found('rosa@mail')).toEqual(['Rosa Ortiz']);
    expect(await found('MOP ON')).toEqual(['Sam']);
    expect(await found('soup at table')).toEqual(['Sam']);
    const trail = auditRepository(database.db, database.containsMatch);
    expect((await trail.list({ page: 0, pageSize: 10, person: 'a desk' })).items.map((e) => e.actor?.email)).toEqual(['dana@frontdesk.test']);

    // The demo conversations a new venue starts with are found as well.
    await seedIfEmpty(database.db, [conversationsSeeder]);
    expect(await found('laksa')).toEqual(['Priya']);
  } finally {
    await database.close();
  }
});
