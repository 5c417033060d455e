import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { BackupRun, BackupsOverview } from '../../contracts/operations.contract';
import { testEngine } from '../../test-support/test-database';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { MANIFEST, readManifest } from './backup-folder';
import { backupStateRepository } from './backup-state.repository';
import { backupSettingsOf, backupsService } from './backups.service';
import { checkBackup } from './restore.service';

/**
 * Backups through the admins' endpoints, on this run's engine (the PostgreSQL pass runs it again): one
 * taken now holds the database (and the Kisi emulator's store), the uploads and picture folders and a
 * manifest; one at a time across instances; a failure is recorded for everyone with its reason; the
 * newest BACKUP_KEEP are kept; the schedule takes them when due, once.
 */
const METRICS_TOKEN = 'backup-test-metrics-token';
const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

let ctx: TestContext;
let admin: Awaited<ReturnType<TestContext['loginAs']>>;

beforeAll(async () => {
  ctx = await createTestContext({ BACKUP_KEEP: '3', METRICS_TOKEN }, {}, { emulator: true });
  admin = await ctx.loginAs('admin');
}, 60_000);
afterAll(async () => {
  await ctx?.kisi?.emulator?.settle();
  await ctx?.close();
});

const overview = async () => (await admin.get('/api/operations/backups').expect(200)).body as BackupsOverview;
const metric = async (name: string) => {
  const text = (await request(ctx.app).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200)).text;
  return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]);
};
const write = (file: string, bytes: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
};

it('takes a backup now: the database with the emulator’s store, the files but uploads under way and pictures being fetched, and a manifest; lists it and says so in the metrics', async () => {
  const before = await overview();
  expect(before).toMatchObject({ last: null, lastSuccess: null, running: null, kept: [], schedule: { everyHours: 24, keep: 3 }, folder: path.resolve(ctx.config.BACKUP_DIR), engine: testEngine() });
  expect(await metric('frontdesk_last_backup_ok')).toBe(0);

  const blob = 'Locker 12: key lost on Monday\n';
  write(path.join(ctx.config.UPLOADS_DIR, 'blobs', sha256(blob)), blob);
  write(path.join(ctx.config.UPLOADS_DIR, 'parts', 'upload-under-way'), 'half a fi');
  const picture = `${'a'.repeat(64)}`;
  write(path.join(ctx.config.CATALOGUE_IMAGE_DIR, picture), 'a picture');
  write(path.join(ctx.config.CATALOGUE_IMAGE_DIR, `${picture}.0123.tmp`), 'a pict');
  write(path.join(ctx.config.SAMPLES_IMAGE_DIR, 'b'.repeat(64)), 'a sample picture');

  const run = (await admin.post('/api/operations/backups').expect(201)).body as BackupRun;
  expect(run).toMatchObject({ ok: true, message: null, by: 'admin1@frontdesk.test' });
  const folder = path.join(ctx.config.BACKUP_DIR, run.name!);
  // Only the server's user may read it: it holds what the database holds.
  expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
  const manifest = await readManifest(folder);
  expect(manifest.stores.map((s) => s.store)).toEqual(['app', 'kisi-emulator']);
  const members = Number((await ctx.database.db.selectFrom('gym_users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  expect(manifest.stores[0]!.tables.gym_users).toBe(members);
  expect(manifest.stores[0]!.migrations.length).toBeGreaterThan(20);
  const paths = manifest.files.map((f) => f.path);
  expect(paths).toEqual(expect.arrayContaining([`files/uploads/blobs/${sha256(blob)}`, `files/catalogue-images/${picture}`, `files/sample-images/${'b'.repeat(64)}`]));
  expect(paths.filter((p) => p.includes('parts/') || p.endsWith('.tmp'))).toEqual([]);
  expect(manifest.notes.join(' ')).toMatch(/Uploads under way .* not kept/);
  expect(fs.readFileSync(path.join(folder, 'files', 'uploads', 'blobs', sha256(blob)), 'utf8')).toBe(blob);
  expect(run.files).toBe(manifest.files.length);
  expect(run.sizeBytes).toBe(manifest.sizeBytes);
  // Whole: every SHA-256, the copy's integrity (SQLite) or the dump's contents (PostgreSQL).
  await expect(checkBackup(folder)).resolves.toMatchObject({ manifest: { createdAt: manifest.createdAt } });
  expect(fs.readdirSync(ctx.config.BACKUP_DIR)).toEqual([run.name]);

  const after = await overview();
  expect(after.last).toEqual(run);
  expect(after.lastSuccess).toEqual(run);
  expect(after.kept).toEqual([{ name: run.name, createdAt: manifest.createdAt, sizeBytes: manifest.sizeBytes, ok: true, engine: testEngine(), migration: manifest.stores[0]!.migrations.at(-1), appVersion: '0.0.0-test' }]);
  expect(await metric('frontdesk_last_backup_ok')).toBe(1);
  expect(await metric('frontdesk_last_backup_timestamp_seconds')).toBe(Date.parse(run.finishedAt) / 1000);
  expect(await metric('frontdesk_last_backup_size_bytes')).toBe(run.sizeBytes);
});

it('refuses a second backup while another instance takes one (409 naming who and since when), and says one is running', async () => {
  const state = backupStateRepository(ctx.database.db);
  const startedAt = new Date().toISOString();
  expect(await state.claim({ holder: 'another-instance', by: 'schedule', startedAt }, startedAt, new Date(Date.now() + 60_000).toISOString())).toBe(true);
  try {
    const refused = await admin.post('/api/operations/backups').expect(409);
    expect(refused.body.detail).toBe(`A backup is being taken already (by schedule, since ${startedAt}): try again when it is done.`);
    expect((await overview()).running).toEqual({ startedAt, by: 'schedule' });
  } finally {
    await state.release('another-instance');
  }
  expect((await overview()).running).toBeNull();
});

it('records a failed backup for every instance with its reason (500 to the admin), the last good one kept as it was', async () => {
  const good = (await overview()).lastSuccess;
  const folder = ctx.config.BACKUP_DIR;
  fs.renameSync(folder, `${folder}.away`);
  fs.writeFileSync(folder, 'not a folder');
  try {
    const failed = await admin.post('/api/operations/backups').expect(500);
    expect(failed.body.detail).toMatch(/^The backup failed: BACKUP_DIR \(.*\) cannot be written to: /);
  } finally {
    fs.rmSync(folder);
    fs.renameSync(`${folder}.away`, folder);
  }
  const after = await overview();
  expect(after.last).toMatchObject({ ok: false, name: null, sizeBytes: null, message: expect.stringMatching(/cannot be written to/) });
  expect(after.lastSuccess).toEqual(good);
  expect(await metric('frontdesk_last_backup_ok')).toBe(0);
  expect(await metric('frontdesk_last_backup_timestamp_seconds')).toBe(Date.parse(good!.finishedAt) / 1000);
});

it('keeps the newest BACKUP_KEEP backups and clears away any a process never finished; other folders stay', async () => {
  const folder = ctx.config.BACKUP_DIR;
  fs.mkdirSync(path.join(folder, '.incomplete-frontdesk-2026-01-01T00-00-00-000Z', 'database'), { recursive: true });
  fs.mkdirSync(path.join(folder, 'notes'));
  const taken: string[] = [(await overview()).kept[0]!.name];
  for (let i = 0; i < 3; i++) taken.push(((await admin.post('/api/operations/backups').expect(201)).body as BackupRun).name!);
  const kept = (await overview()).kept.map((b) => b.name);
  expect(kept).toEqual(taken.slice(-3).reverse());
  expect(fs.readdirSync(folder).sort()).toEqual([...taken.slice(-3), 'notes'].sort());
  for (const name of kept) expect(fs.existsSync(path.join(folder, name, MANIFEST))).toBe(true);
});

it('on PostgreSQL without pg_dump, says to install postgresql-client', async () => {
  if (testEngine() !== 'postgres') return;
  const pathBefore = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    const failed = await admin.post('/api/operations/backups').expect(500);
    expect(failed.body.detail).toMatch(/^The backup failed: pg_dump is not installed here: install postgresql-client \(/);
  } finally {
    process.env.PATH = pathBefore;
  }
});

describe('the schedule', () => {
  it('takes the first backup an interval after it first looked, the next an interval after the last (a failed one again within the hour), once across instances', async () => {
    await withTestContext({ env: { BACKUP_EVERY_HOURS: '24', BACKUP_KEEP: '0' } }, async (app) => {
      let clock = Date.parse('2026-12-01T03:00:00.000Z');
      const now = () => new Date(clock);
      const HOUR = 3_600_000;
      const service = backupsService({ database: app.database, settings: backupSettingsOf(app.config, '0.0.0-test'), now });
      const other = backupsService({ database: app.database, settings: backupSettingsOf(app.config, '0.0.0-test'), now });

      expect(await service.takeIfDue()).toBeUndefined();
      expect((await service.nextDue())?.toISOString()).toBe('2026-12-02T03:00:00.000Z');
      clock += 24 * HOUR - 1;
      expect(await other.takeIfDue()).toBeUndefined();
      clock += 1;
      const first = await service.takeIfDue();
      expect(first).toMatchObject({ ok: true, by: 'schedule', startedAt: '2026-12-02T03:00:00.000Z' });
      expect(await other.takeIfDue()).toBeUndefined(); // the same turn, already taken
      expect((await service.nextDue())?.getTime()).toBe(Date.parse(first!.finishedAt) + 24 * HOUR);

      // Another instance holds the lease when the next is due: this one leaves it to it.
      clock = Date.parse(first!.finishedAt) + 24 * HOUR;
      const state = backupStateRepository(app.database.db);
      expect(await state.claim({ holder: 'elsewhere', by: 'schedule', startedAt: now().toISOString() }, now().toISOString(), new Date(clock + 60_000).toISOString())).toBe(true);
      expect(await service.takeIfDue()).toBeUndefined();
      await state.release('elsewhere');

      // A failure is tried again an hour later, not a day.
      fs.writeFileSync(path.join(app.dir, 'in-the-way'), '');
      const failing = backupsService({ database: app.database, settings: { ...backupSettingsOf(app.config, '0.0.0-test'), folder: path.join(app.dir, 'in-the-way') }, now });
      const failed = await failing.takeIfDue();
      expect(failed).toMatchObject({ ok: false, by: 'schedule' });
      expect((await service.nextDue())?.getTime()).toBe(Date.parse(failed!.finishedAt) + HOUR);
      expect((await backupStateRepository(app.database.db).lastSuccess())?.name).toBe(first!.name);
    });
  });

  it('is off with BACKUP_EVERY_HOURS=0', async () => {
    await withTestContext({ env: { BACKUP_EVERY_HOURS: '0' } }, async (app) => {
      const service = backupsService({ database: app.database, settings: backupSettingsOf(app.config, '0.0.0-test') });
      expect(await service.nextDue()).toBeNull();
      expect(await service.takeIfDue()).toBeUndefined();
    });
  });
});
