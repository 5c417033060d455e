import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chatApi, type ChannelList } from './contracts/chat.contract';
import { loginApi } from './contracts/login.contract';
import type { BackupsOverview } from './contracts/operations.contract';
import { ptApi, type Menu } from './contracts/pt.contract';
import { openDatabase } from './db/database';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { createTestDatabase, testEngine, type TestDatabase } from './test-support/test-database';

/**
 * Backups as an operator takes and restores them, on this run's engine (the PostgreSQL pass runs it
 * again): `npm run backup` while a real BFF takes orders, chat messages and uploads; `npm run restore`
 * into a new place, where a BFF starts and has every write acknowledged before the backup began, and
 * the files byte for byte; a damaged backup refused with that data as it was; a restore refused while
 * a server runs; scheduled backups rotating; the commands' usage in one line, never a stack.
 */
jest.setTimeout(180_000);

const ADMIN = { email: 'admin@backup.test', password: 'backup-test-admin-password' };
const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

let dir: string;
const databases: TestDatabase[] = [];
const servers: SpawnedBff[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-backup-'));
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const database of databases) await database.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A place for an install: a database of its own and its folders; BACKUP_DIR shared by the test's installs. */
async function install(name: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const database = await createTestDatabase(dir, name);
  databases.push(database);
  const data = path.join(dir, name);
  return {
    DATABASE_URL: testEngine() === 'sqlite' ? `file:${path.join(data, 'frontdesk.db')}` : database.url,
    UPLOADS_DIR: path.join(data, 'uploads'),
    CATALOGUE_IMAGE_DIR: path.join(data, 'catalogue-images'),
    SAMPLES_IMAGE_DIR: path.join(data, 'sample-images'),
    BACKUP_DIR: path.join(dir, 'backups'),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    ORDERS_PER_MINUTE: '100000',
    MESSAGES_PER_MINUTE: '100000',
    ...extra,
  };
}

async function start(env: Record<string, string>): Promise<SpawnedBff> {
  const server = await spawnBff(env);
  servers.push(server);
  return server;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run backup` or `npm run restore -- <args>`, in a process of its own, as an operator types it. */
function cli(command: 'backup' | 'restore', env: Record<string, string>, ...args: string[]): Promise<Run> {
  const child = spawn(process.execPath, ['--import', 'tsx', `bff/${command}.cli.ts`, ...args], { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  return new Promise((resolve) =>
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}
const noStack = (run: Run) => expect(`${run.stdout}${run.stderr}`).not.toMatch(/\n\s+at |ERR_PARSE_ARGS|Error:/);

async function signIn(base: string): Promise<string> {
  const login = await fetch(`${base}${loginApi.login.path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
  expect(login.status).toBe(200);
  return login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
}

/** Every file under a folder with its SHA-256. */
function filesOf(folder: string): Record<string, string> {
  if (!fs.existsSync(folder)) return {};
  return Object.fromEntries(
    (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isFile())
      .map((e) => [path.relative(folder, path.join(e.parentPath, e.name)), sha256(fs.readFileSync(path.join(e.parentPath, e.name)))]),
  );
}

/** What an install holds: every file of its folders (the SQLite database's bytes among them), and on PostgreSQL its rows of what the load wrote. */
async function contentsOf(env: Record<string, string>) {
  const files = filesOf(path.dirname(env.UPLOADS_DIR!));
  if (testEngine() === 'sqlite') return { files };
  const database = await openDatabase(env.DATABASE_URL!);
  try {
    const count = async (table: 'orders' | 'messages' | 'uploads' | 'accounts') => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    return { files, rows: { orders: await count('orders'), messages: await count('messages'), uploads: await count('uploads'), accounts: await count('accounts') } };
  } finally {
    await database.close();
  }
}

/** One write of the load, found again by its marker. */
interface Write {
  kind: 'order' | 'chat' | 'upload';
  marker: string;
  content?: string;
  answeredAt?: number;
  status?: number;
}

it('restores a backup taken under a write load into a new place: the app starts on it with every write acknowledged before the backup began and the files byte for byte; a damaged one is refused with that data as it was; a restore is refused while a server runs', async () => {
  const live = await install('live');
  // Pictures the proxies kept: files that are no upload, copied as they are.
  for (const [folder, n] of [[live.CATALOGUE_IMAGE_DIR!, 3], [live.SAMPLES_IMAGE_DIR!, 2]] as const) {
    fs.mkdirSync(folder, { recursive: true });
    for (let i = 0; i < n; i++) fs.writeFileSync(path.join(folder, sha256(`${folder}${i}`)), crypto.randomBytes(2000 + i));
  }
  const server = await start(live);
  const cookie = await signIn(server.url);
  const menu = (await (await fetch(`${server.url}${ptApi.menu.path}`)).json()) as Menu;
  const items = menu.stalls.filter((stall) => stall.availability.state === 'open').flatMap((stall) => stall.items.filter((item) => !item.soldOut));
  const channels = (await (await fetch(`${server.url}${chatApi.listChannels.path}`, { headers: { cookie } })).json()) as ChannelList;
  const channel = channels.channels.find((c) => !c.archivedAt)!;

  // ---- the load: diners' orders, staff chat and uploads, one after another per writer, until stopped
  const writes: Write[] = [];
  let stopped = false;
  let seq = 0;
  const send = async (write: Write, request: () => Promise<Response>) => {
    writes.push(write);
    try {
      const res = await request();
      await res.arrayBuffer();
      write.status = res.status;
      write.answeredAt = Date.now();
    } catch {
      // not answered
    }
  };
  const writer = (kind: Write['kind']) => async () => {
    while (!stopped) {
      const marker = `backup-${kind}-${String(seq++).padStart(6, '0')}`;
      if (kind === 'order') {
        await send({ kind, marker }, () =>
          fetch(`${server.url}${ptApi.placeOrder.path}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Idempotency-Key': marker },
            body: JSON.stringify({ table: 1 + (seq % menu.tables), cart: [{ itemId: items[seq % items.length]!.id, quantity: 1, note: marker }] }),
          }),
        );
      } else if (kind === 'chat') {
        await send({ kind, marker }, () =>
          fetch(`${server.url}/api/chat/channels/${channel.id}/messages`, { method: 'POST', headers: { 'Content-Type': 'application/json', cookie }, body: JSON.stringify({ body: `${marker}: table 4 needs a high chair` }) }),
        );
      } else {
        const content = `${marker}\n${crypto.randomBytes(3000).toString('hex')}\n`;
        const metadata = `filename ${Buffer.from(`${marker}.txt`).toString('base64')},filetype ${Buffer.from('text/plain').toString('base64')}`;
        await send({ kind, marker, content }, () =>
          fetch(`${server.url}/api/uploads/tus`, {
            method: 'POST',
            headers: { cookie, 'Tus-Resumable': '1.0.0', 'Upload-Length': String(Buffer.byteLength(content)), 'Upload-Metadata': metadata, 'Content-Type': 'application/offset+octet-stream' },
            body: content,
          }),
        );
      }
    }
  };
  const load = [writer('order'), writer('order'), writer('chat'), writer('upload')].map((run) => run());
  const acknowledged = (w: Write) => w.status !== undefined && w.status >= 200 && w.status < 300;
  while (writes.filter(acknowledged).length < 60) await new Promise((r) => setTimeout(r, 20));

  // ---- the backup, while the load goes on
  const began = Date.now();
  const backedUp = await cli('backup', live);
  const ended = Date.now();
  await new Promise((r) => setTimeout(r, 300));
  stopped = true;
  await Promise.all(load);
  expect(backedUp).toMatchObject({ code: 0, stderr: '' });
  const backup = /^Backed up to (\S+) \(\d+ files?, .*, in [\d.]+ s\)\.$/m.exec(backedUp.stdout)?.[1];
  expect(backup).toBeDefined();
  const before = writes.filter((w) => acknowledged(w) && w.answeredAt! < began);
  for (const kind of ['order', 'chat', 'upload'] as const) expect([kind, before.filter((w) => w.kind === kind).length > 0]).toEqual([kind, true]);
  // The app kept answering writes while the backup was taken.
  expect(writes.filter((w) => acknowledged(w) && w.answeredAt! > began && w.answeredAt! < ended).length).toBeGreaterThan(0);
  expect(writes.filter((w) => w.status !== undefined && !acknowledged(w))).toEqual([]);

  // ---- refused while a server uses the database: and that server's data is as it was
  const refused = await cli('restore', live, backup!);
  expect(refused.code).toBe(1);
  expect(refused.stderr.trim()).toMatch(
    testEngine() === 'sqlite' ? /^A Frontdesk server \(or npm run backup\) has .*frontdesk\.db open: stop it first, then restore\.$/ : /^Frontdesk is connected to this database \(.*\): stop every instance \(and any npm run backup\) first, then restore\.$/,
  );
  noStack(refused);
  expect((await fetch(`${server.url}/api/health/ready`)).status).toBe(200);
  expect(fs.readdirSync(path.join(dir, 'live')).filter((name) => /^replaced-|\.restoring-/.test(name))).toEqual([]);

  // ---- into a new place: the app starts on it
  const elsewhere = await install('elsewhere');
  const restored = await cli('restore', elsewhere, backup!);
  expect(restored).toMatchObject({ code: 0, stderr: '' });
  expect(restored.stdout).toMatch(/^Checking .*\nChecked frontdesk-.*every SHA-256 matches.*\n/);
  expect(restored.stdout).toContain('Done. There was no data to replace.');
  const second = await start(elsewhere);
  const secondCookie = await signIn(second.url);
  expect((await fetch(`${second.url}/api/health/ready`)).status).toBe(200);
  const overview = (await (await fetch(`${second.url}/api/operations/backups`, { headers: { cookie: secondCookie } })).json()) as BackupsOverview;
  expect(overview.kept.map((b) => path.join(overview.folder, b.name))).toContain(backup);

  // Every write acknowledged before the backup began is there, once; the uploads' bytes too.
  const database = await openDatabase(elsewhere.DATABASE_URL!);
  const [orders, messages, uploads] = await Promise.all([
    database.db.selectFrom('orders').select('idempotency_key').where('idempotency_key', 'like', 'backup-order-%').execute(),
    database.db.selectFrom('messages').select('body').where('body', 'like', 'backup-chat-%').execute(),
    database.db.selectFrom('uploads').select(['name', 'sha256']).where('name', 'like', 'backup-upload-%').execute(),
  ]);
  await database.close();
  const count = <T>(rows: T[], key: (row: T) => string) => rows.reduce((m, row) => m.set(key(row), (m.get(key(row)) ?? 0) + 1), new Map<string, number>());
  const stored = {
    order: count(orders, (o) => o.idempotency_key!),
    chat: count(messages, (m) => m.body.split(':')[0]!),
    upload: count(uploads, (u) => u.name.replace(/\.txt$/, '')),
  };
  expect(before.filter((w) => stored[w.kind].get(w.marker) !== 1).map((w) => w.marker)).toEqual([]);
  for (const write of before.filter((w) => w.kind === 'upload')) {
    const row = uploads.find((u) => u.name === `${write.marker}.txt`)!;
    expect(row.sha256).toBe(sha256(write.content!));
    expect(fs.readFileSync(path.join(elsewhere.UPLOADS_DIR!, 'blobs', row.sha256), 'utf8')).toBe(write.content);
  }
  // The picture folders, byte for byte; every upload's file that the backup's rows name.
  expect(filesOf(elsewhere.CATALOGUE_IMAGE_DIR!)).toEqual(filesOf(live.CATALOGUE_IMAGE_DIR!));
  expect(filesOf(elsewhere.SAMPLES_IMAGE_DIR!)).toEqual(filesOf(live.SAMPLES_IMAGE_DIR!));
  const liveBlobs = filesOf(path.join(live.UPLOADS_DIR!, 'blobs'));
  for (const [name, hash] of Object.entries(filesOf(path.join(elsewhere.UPLOADS_DIR!, 'blobs')))) expect([name, hash]).toEqual([name, liveBlobs[name]]);
  await second.stop();

  // ---- a damaged backup is refused, and the data there stays as it was
  const settled = await contentsOf(elsewhere);
  const damaged = path.join(dir, 'damaged');
  fs.cpSync(backup!, damaged, { recursive: true });
  const dump = path.join(damaged, 'database', testEngine() === 'sqlite' ? 'frontdesk.db' : 'frontdesk.pgdump');
  const bytes = fs.readFileSync(dump);
  bytes[Math.floor(bytes.length / 2)]! ^= 0x40;
  fs.writeFileSync(dump, bytes);
  const flipped = await cli('restore', elsewhere, damaged);
  expect({ code: flipped.code, stderr: flipped.stderr.trim() }).toEqual({ code: 1, stderr: `The backup is damaged: ${path.relative(damaged, dump)} does not match its SHA-256 in the manifest (changed since it was taken).` });
  fs.truncateSync(dump, 4096);
  const truncated = await cli('restore', elsewhere, damaged);
  expect({ code: truncated.code, stderr: truncated.stderr.trim() }).toEqual({ code: 1, stderr: `The backup is damaged: database/${path.basename(dump)} has 4096 bytes, its manifest says ${bytes.length} (truncated or changed since it was taken).` });
  noStack(truncated);
  expect(await contentsOf(elsewhere)).toEqual(settled);
  await server.stop();
});

it('takes scheduled backups and keeps the newest BACKUP_KEEP', async () => {
  const env = await install('scheduled', { BACKUP_DIR: path.join(dir, 'scheduled-backups'), BACKUP_EVERY_HOURS: '0.0005', BACKUP_KEEP: '2' });
  const server = await start(env);
  const seen = new Set<string>();
  const deadline = Date.now() + 60_000;
  while (seen.size < 4) {
    if (Date.now() > deadline) throw new Error(`${seen.size} scheduled backups within 60 s`);
    for (const name of fs.existsSync(env.BACKUP_DIR!) ? fs.readdirSync(env.BACKUP_DIR!) : []) if (fs.existsSync(path.join(env.BACKUP_DIR!, name, 'manifest.json'))) seen.add(name);
    await new Promise((r) => setTimeout(r, 100));
  }
  // Stopped meanwhile, a backup under way is ended and its folder removed: only whole ones remain.
  await server.stop();
  const left = fs.readdirSync(env.BACKUP_DIR!).sort();
  // The newest two of every backup taken (one may have finished after the last look).
  expect(left).toEqual([...new Set([...seen, ...left])].sort().slice(-2));
  expect(left.every((name) => fs.existsSync(path.join(env.BACKUP_DIR!, name, 'manifest.json')))).toBe(true);
});

describe('the commands', () => {
  it('print their usage for --help (exit 0), and answer an unknown option or a missing backup with one line and the usage (exit 2)', async () => {
    const env = { DATABASE_URL: `file:${path.join(dir, 'usage', 'frontdesk.db')}`, BACKUP_DIR: path.join(dir, 'usage', 'backups') };
    for (const command of ['backup', 'restore'] as const) {
      const help = await cli(command, env, '--help');
      expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 0, stderr: '' });
      expect(help.stdout).toMatch(new RegExp(`^Usage:\\n {2}npm run ${command}`));
      const unknown = await cli(command, env, '--frobnicate');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.split('\n').slice(0, 3)).toEqual(['Unknown option --frobnicate', '', 'Usage:']);
      noStack(unknown);
    }
    const nothing = await cli('backup', env);
    expect({ code: nothing.code, stderr: nothing.stderr.trim() }).toEqual({ code: 1, stderr: `No database at ${path.join(dir, 'usage', 'frontdesk.db')} (DATABASE_URL): nothing to back up.` });
    expect(fs.existsSync(path.join(dir, 'usage'))).toBe(false);
    const none = await cli('restore', env);
    expect({ code: none.code, first: none.stderr.split('\n')[0] }).toEqual({ code: 2, first: 'Name the backup to restore.' });
    const absent = await cli('restore', env, 'frontdesk-2020-01-01T00-00-00-000Z');
    expect({ code: absent.code, stderr: absent.stderr.trim() }).toEqual({
      code: 1,
      stderr: `No backup at ${path.resolve('frontdesk-2020-01-01T00-00-00-000Z')} or ${path.join(env.BACKUP_DIR, 'frontdesk-2020-01-01T00-00-00-000Z')}.`,
    });
  });

  it('on PostgreSQL without pg_dump, says to install postgresql-client and exits 1', async () => {
    if (testEngine() !== 'postgres') return;
    const env = await install('no-pg-dump');
    const run = await cli('backup', { ...env, PATH: '/nonexistent' });
    expect(run.code).toBe(1);
    expect(run.stderr.trim()).toMatch(/^The backup failed: pg_dump is not installed here: install postgresql-client \(Debian and Ubuntu: apt-get install postgresql-client; macOS: brew install libpq\)/);
    noStack(run);
  });
});
