import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SessionUser } from '../../contracts/auth.contract';
import { openDatabase, type Database } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database';
import { accountsRepository } from './accounts.repository';
import type { OpenedSession } from './auth.service';
import { teamServiceOn, type TeamService } from './team.service';

let dir: string;
let target: TestDatabase;
let database: Database;
let team: TeamService;
let signals = 0;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-team-service-'));
  target = await createTestDatabase(dir, 'team');
  database = await openDatabase(target.url);
  team = teamServiceOn(database, {
    auth: { openSession: async (account) => ({ token: 'session', user: account, expiresAt: new Date() }) as OpenedSession, forgetCachedSessions: () => {} },
    sessionsEnded: async () => void signals++,
  });
});
afterAll(async () => {
  await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

let people = 0;
async function admin(): Promise<SessionUser> {
  const n = ++people;
  const created = await accountsRepository(database.db).insert({ email: `admin${n}@frontdesk.test`, name: `Admin ${n}`, role: 'admin', passwordHash: '' });
  return { id: created.id, email: created.email, name: created.name, role: 'admin' };
}
const activeAdmins = async () =>
  (await database.db.selectFrom('accounts').select('id').where('role', '=', 'admin').where('status', '=', 'active').execute()).map((row) => row.id);

/** What a change that must not leave the team without an admin answered: done, or refused with its status. */
const outcome = (settled: PromiseSettledResult<unknown>) => (settled.status === 'fulfilled' ? 'done' : settled.reason instanceof HttpError ? settled.reason.status : String(settled.reason));

type Change = (actor: SessionUser, other: SessionUser) => Promise<unknown>;
const CHANGES: Record<string, Change> = {
  demotes: (actor, other) => team.changeRole(actor, other.id, 'staff'),
  deactivates: (actor, other) => team.changeStatus(actor, other.id, 'deactivated'),
  deletes: (actor, other) => team.remove(actor, other.id),
};

describe('the last active admin', () => {
  // The two admins are the only active ones; each takes the other's admin rights at the same moment.
  // Counted before the change, both would see two admins and both would commit (PostgreSQL runs them
  // side by side): the team's lock makes the second count what the first left.
  it.each([
    ['demotes', 'demotes'],
    ['deactivates', 'demotes'],
    ['deletes', 'deactivates'],
    ['deletes', 'deletes'],
  ])('stays when one admin %s the other while the other %s the first, at once', async (first, second) => {
    for (let round = 0; round < 5; round++) {
      await database.db.updateTable('accounts').set({ status: 'deactivated' }).where('role', '=', 'admin').execute();
      const [a, b] = [await admin(), await admin()];
      const settled = await Promise.allSettled([CHANGES[first]!(a, b), CHANGES[second]!(b, a)]);
      expect(settled.map(outcome).sort()).toEqual([409, 'done']);
      expect(await activeAdmins()).toHaveLength(1);
    }
  });
});

describe('the instances are told', () => {
  it('when sessions end or an account changes, not when nothing about a session does', async () => {
    const actor = await admin();
    const other = await admin();
    const told = async (change: () => Promise<unknown>) => {
      const before = signals;
      await change();
      return signals - before;
    };
    expect(await told(() => team.changeRole(actor, other.id, 'staff'))).toBe(1);
    expect(await told(() => team.changeRole(actor, other.id, 'staff'))).toBe(0);
    expect(await told(() => team.changeStatus(actor, other.id, 'deactivated'))).toBe(1);
    expect(await told(() => team.changeStatus(actor, other.id, 'active'))).toBe(0);
    expect(await told(() => team.invite(actor, { email: 'told@frontdesk.test', role: 'runner', expiresInHours: 1 }))).toBe(0);
    const { token } = await team.makeResetLink(actor, other.id, 1);
    expect(await told(() => team.useReset({ token, password: 'a-long-enough-password' }, { userAgent: '', address: '' }))).toBe(1);
    expect(await told(() => team.remove(actor, other.id))).toBe(1);
  });
});
