import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../db/database';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { authService, authStoreOn } from './auth.service';
import { sessionsRepository } from './sessions.repository';

/** The session read kept in memory: one database read serves many requests, and ending a session is seen at once. */
let dir: string;
let target: TestDatabase;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-auth-service-'));
  target = await createTestDatabase(dir, 'auth');
  database = await openDatabase(target.url);
});
afterAll(async () => {
  await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const PASSWORD = 'a-long-enough-password';

/** The service's clock: tests move it instead of waiting. */
let clock = Date.now();
const now = () => new Date(clock);

async function serviceWithCountedReads(email: string, sessionCacheMs = 60_000, sessionTtlMs = 3_600_000) {
  const sessions = sessionsRepository(database.db);
  let reads = 0;
  const counted = { ...sessions, findActiveUser: (...args: Parameters<typeof sessions.findActiveUser>) => (reads++, sessions.findActiveUser(...args)) };
  const ended: string[] = [];
  const auth = authService({ ...authStoreOn(database.db), sessions: counted, sessionTtlMs, sessionCacheMs, now, sessionsEnded: async () => void ended.push('ended') });
  await auth.addAccount(null, { email, name: 'Desk', role: 'staff', password: PASSWORD });
  return { auth, reads: () => reads, ended };
}

it('reads a session from the database once for many requests', async () => {
  const { auth, reads } = await serviceWithCountedReads('many@frontdesk.test');
  const { token } = await auth.login('many@frontdesk.test', PASSWORD);
  for (let i = 0; i < 20; i++) expect(await auth.userForToken(token)).toMatchObject({ email: 'many@frontdesk.test', role: 'staff' });
  expect(reads()).toBe(1);
  expect(await auth.userForToken('not-a-session')).toBeUndefined();
});

it('forgets a session at once on logout, a password change and a revoke, and tells the other instances', async () => {
  const { auth, ended } = await serviceWithCountedReads('ends@frontdesk.test');
  const first = await auth.login('ends@frontdesk.test', PASSWORD);
  await auth.userForToken(first.token);
  await auth.logout(first.user, first.token);
  expect(await auth.userForToken(first.token)).toBeUndefined();

  const second = await auth.login('ends@frontdesk.test', PASSWORD);
  await auth.userForToken(second.token);
  await auth.setPassword(null, 'ends@frontdesk.test', 'another-long-password');
  expect(await auth.userForToken(second.token)).toBeUndefined();

  const third = await auth.login('ends@frontdesk.test', 'another-long-password');
  await auth.userForToken(third.token);
  expect(await auth.revokeSessions(null, 'ends@frontdesk.test')).toBe(1);
  expect(await auth.userForToken(third.token)).toBeUndefined();
  expect(ended).toEqual(['ended', 'ended', 'ended']);
});

it('reads again after another instance says sessions ended, or once the short lifetime is over', async () => {
  const { auth, reads } = await serviceWithCountedReads('elsewhere@frontdesk.test', 50);
  const { token } = await auth.login('elsewhere@frontdesk.test', PASSWORD);
  await auth.userForToken(token);
  // Revoked by another process, straight in the database.
  await database.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).execute();
  auth.forgetCachedSessions();
  expect(await auth.userForToken(token)).toBeUndefined();

  const again = await auth.login('elsewhere@frontdesk.test', PASSWORD);
  await auth.userForToken(again.token);
  await database.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('revoked_at', 'is', null).execute();
  clock += 50;
  expect(await auth.userForToken(again.token)).toBeUndefined();
  expect(reads()).toBe(4);
});

it('never serves a session from memory past its expiry', async () => {
  const { auth, reads } = await serviceWithCountedReads('short@frontdesk.test', 60_000, 1_000);
  const { token } = await auth.login('short@frontdesk.test', PASSWORD);
  await auth.userForToken(token);
  clock += 999;
  expect(await auth.userForToken(token)).toMatchObject({ email: 'short@frontdesk.test' });
  expect(reads()).toBe(1);
  clock += 1;
  expect(await auth.userForToken(token)).toBeUndefined();
});

it('keeps nothing in memory when the cache time is 0', async () => {
  const { auth, reads } = await serviceWithCountedReads('uncached@frontdesk.test', 0);
  const { token } = await auth.login('uncached@frontdesk.test', PASSWORD);
  for (let i = 0; i < 3; i++) expect(await auth.userForToken(token)).toMatchObject({ email: 'uncached@frontdesk.test' });
  expect(reads()).toBe(3);
});

it('keeps when a session was last seen to the minute, written by its reads and never failing them', async () => {
  const sessions = sessionsRepository(database.db);
  let failSeen = false;
  const seen: string[] = [];
  const watched = {
    ...sessions,
    seen: (...args: Parameters<typeof sessions.seen>) => (seen.push(args[1]), failSeen ? Promise.reject(new Error('read-only database')) : sessions.seen(...args)),
  };
  const auth = authService({ ...authStoreOn(database.db), sessions: watched, sessionTtlMs: 3_600_000, sessionCacheMs: 0, now });
  await auth.addAccount(null, { email: 'seen@frontdesk.test', name: 'Seen', role: 'staff', password: PASSWORD });
  const { token } = await auth.login('seen@frontdesk.test', PASSWORD);
  const lastSeen = async () => (await database.db.selectFrom('sessions').innerJoin('accounts', 'accounts.id', 'sessions.account_id').select('last_seen_at').where('email', '=', 'seen@frontdesk.test').executeTakeFirstOrThrow()).last_seen_at;
  const signedInAt = await lastSeen();

  // Within the minute: read, not written.
  clock += 30_000;
  await auth.userForToken(token);
  expect(seen).toEqual([]);
  expect(await lastSeen()).toBe(signedInAt);

  // Past it: the read writes the time it was read at.
  clock += 31_000;
  await auth.userForToken(token);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await lastSeen()).toBe(now().toISOString());

  // A write that fails leaves the read answering.
  failSeen = true;
  clock += 61_000;
  expect(await auth.userForToken(token)).toMatchObject({ email: 'seen@frontdesk.test' });
  expect(seen).toHaveLength(2);
});

it('opens no session for an account deactivated after its owner proved who they are (a sign-in racing the deactivation)', async () => {
  const { auth } = await serviceWithCountedReads('racing@frontdesk.test');
  const account = await database.db.selectFrom('accounts').select(['id', 'email', 'name', 'role']).where('email', '=', 'racing@frontdesk.test').executeTakeFirstOrThrow();
  // The password was right a moment ago; the deactivation commits before the session is written.
  await database.db.updateTable('accounts').set({ status: 'deactivated' }).where('id', '=', account.id).execute();
  await expect(auth.openSession(account, { userAgent: 'test', address: '127.0.0.1' }, 'signed in')).rejects.toMatchObject({ status: 403 });
  const sessions = await database.db.selectFrom('sessions').select('id').where('account_id', '=', account.id).execute();
  expect(sessions).toEqual([]);
});
