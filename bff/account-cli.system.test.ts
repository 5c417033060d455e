import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from './db/database';
import { authServiceOn } from './features/auth/auth.service';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';

/**
 * `npm run account`, as someone on a headless server types it: in a process of its own, its words
 * on stdout or stderr and its exit code, never a stack trace.
 */
jest.setTimeout(60_000);

let dir: string;
let target: TestDatabase;
let database: Database;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-account-cli-'));
  target = await createTestDatabase(dir, 'account_cli');
  database = await openDatabase(target.url);
});
afterAll(async () => {
  await database.close();
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run account -- <args>` on the test's database. */
function account(...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bff/account.cli.ts', ...args], {
    env: { ...process.env, DATABASE_URL: target.url, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

const noStack = (run: Run) => expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at |ERR_PARSE_ARGS|Error:/);

describe('its usage', () => {
  it('prints the usage for --help and -h, and exits 0', async () => {
    for (const help of ['--help', '-h']) {
      const run = await account(help);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      expect(run.stdout).toMatch(/^Usage:\n {2}npm run account -- add --email/);
      expect(run.stdout).toContain('npm run account -- deactivate --email <email>');
    }
  });

  it('answers an unknown option with one line and the usage, exit 2', async () => {
    const run = await account('add', '--foo');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const [first, blank, usage] = run.stderr.split('\n');
    expect([first, blank, usage]).toEqual(['Unknown option --foo', '', 'Usage:']);
    noStack(run);
  });

  it('prints just the usage with no arguments', async () => {
    const [run, help] = await Promise.all([account(), account('--help')]);
    expect(run.code).toBe(2);
    // Nothing before it (it used to say "--email: Enter an email address" first).
    expect(run.stderr).toBe(help.stdout);
  });

  it('names an unknown command, and a missing email when the command needs one', async () => {
    const unknown = await account('promote', '--email', 'ada@frontdesk.test');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split('\n')[0]).toBe('Unknown command promote');
    const noEmail = await account('deactivate');
    expect(noEmail.code).toBe(2);
    expect(noEmail.stderr.split('\n')[0]).toBe('--email: Enter an email address');
    noStack(noEmail);
  });
});

describe('deactivate and activate', () => {
  it('deactivates an account, ending its sessions, and activates it again, in the audit trail as the command line', async () => {
    const auth = authServiceOn(database.db, { sessionTtlMs: 3_600_000, sessionCacheMs: 0 });
    await auth.addAccount(null, { email: 'boss@cli.test', name: 'Boss', role: 'admin', password: 'a-long-enough-password' });
    await auth.addAccount(null, { email: 'leaver@cli.test', name: 'Leaver', role: 'staff', password: 'a-long-enough-password' });
    const { token } = await auth.login('leaver@cli.test', 'a-long-enough-password');

    const deactivated = await account('deactivate', '--email', 'leaver@cli.test');
    expect(deactivated).toEqual({ code: 0, stdout: 'Deactivated leaver@cli.test; its sessions have ended.\n', stderr: '' });
    expect(await auth.userForToken(token)).toBeUndefined();
    await expect(auth.login('leaver@cli.test', 'a-long-enough-password')).rejects.toMatchObject({ status: 403 });

    const activated = await account('activate', '--email', 'leaver@cli.test');
    expect(activated).toEqual({ code: 0, stdout: 'Activated leaver@cli.test; they can sign in again.\n', stderr: '' });
    await auth.login('leaver@cli.test', 'a-long-enough-password');

    const trail = await database.db.selectFrom('audit_entries').select(['actor_email as actor', 'action']).where('subject', 'like', '%<leaver@cli.test>').where('kind', '=', 'account').orderBy('id').execute();
    expect(trail.slice(-2)).toEqual([
      { actor: null, action: 'deactivated' },
      { actor: null, action: 'reactivated' },
    ]);
  });

  it('keeps the last active admin, and says so in one line', async () => {
    await database.db.updateTable('accounts').set({ status: 'deactivated' }).where('role', '=', 'admin').where('email', '<>', 'boss@cli.test').execute();
    const run = await account('deactivate', '--email', 'boss@cli.test');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Boss is the last active admin: make another admin first.\n');
    const unknown = await account('activate', '--email', 'nobody@cli.test');
    expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({ code: 1, stderr: 'No account with email nobody@cli.test.\n' });
  });
});
