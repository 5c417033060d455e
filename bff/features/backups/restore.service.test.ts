import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import type { BackupRun } from '../../contracts/operations.contract';
import { migrateToLatest, openDatabase } from '../../db/database';
import { connect, createKysely } from '../../db/engine';
import { MIGRATIONS } from '../../db/migrations/migrations';
import type { DB } from '../../db/schema';
import { emulatorStoreBeside, openEmulatorDatabase } from '../../kisi/emulator/emulator.database';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { createTestDatabase, testEngine, type TestDatabase } from '../../test-support/test-database';
import { FILE_FOLDERS, MANIFEST, readManifest, type FileFolder } from './backup-folder';
import { backupSettingsOf, backupsService, type BackupSettings } from './backups.service';
import { restoreBackup, restoreTargetOf, type RestoreTarget } from './restore.service';

/**
 * `npm run restore`'s work on this run's engine (the PostgreSQL pass runs it again): a backup goes
 * back whole into a new place and over data that is there (kept aside); a damaged, truncated or
 * incomplete backup, one from a newer version, or a restore while a server uses the database is
 * refused with the live data as it was; a backup from an older version is moved forward.
 */
jest.setTimeout(40_000);

const sha256 = (bytes: Buffer | string) => crypto.createHash('sha256').update(bytes).digest('hex');

let ctx: TestContext;
let dir: string;
let settings: BackupSettings;
/** The backup every test restores or damages a copy of. */
let backup: string;
const databases: TestDatabase[] = [];

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-restore-'));
  settings = backupSettingsOf(ctx.config, '0.0.0-test');
  fs.mkdirSync(path.join(ctx.config.UPLOADS_DIR, 'blobs'), { recursive: true });
  fs.writeFileSync(path.join(ctx.config.UPLOADS_DIR, 'blobs', sha256('receipt')), 'receipt');
  fs.mkdirSync(ctx.config.CATALOGUE_IMAGE_DIR, { recursive: true });
  fs.writeFileSync(path.join(ctx.config.CATALOGUE_IMAGE_DIR, 'c'.repeat(64)), crypto.randomBytes(3000));
  await ctx.database.db.insertInto('app_meta').values({ key: 'restore-test', value: 'in the backup' }).execute();
  const run = await backupsService({ database: ctx.database, settings }).take('test');
  backup = path.join(settings.folder, run.name!);
}, 60_000);

afterAll(async () => {
  await ctx?.kisi?.emulator?.settle();
  await ctx?.close();
  for (const database of databases) await database.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A new place to restore into: a database of its own (nothing in it yet) and folders of its own. */
async function newTarget(name: string): Promise<RestoreTarget> {
  fs.mkdirSync(path.join(dir, name), { recursive: true });
  const database = await createTestDatabase(path.join(dir, name), name);
  databases.push(database);
  const url = testEngine() === 'sqlite' ? `file:${path.join(dir, name, 'data', 'frontdesk.db')}` : database.url;
  return { databaseUrl: url, files: { uploads: path.join(dir, name, 'data', 'uploads'), 'catalogue-images': path.join(dir, name, 'data', 'catalogue-images'), 'sample-images': path.join(dir, name, 'data', 'sample-images') } };
}

/** Each file under a folder with its SHA-256. */
function filesOf(folder: string): Record<string, string> {
  if (!fs.existsSync(folder)) return {};
  return Object.fromEntries(
    (fs.readdirSync(folder, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((e) => e.isFile())
      .map((e) => [path.relative(folder, path.join(e.parentPath, e.name)), sha256(fs.readFileSync(path.join(e.parentPath, e.name)))]),
  );
}

/** What a target holds: rows per table of both stores, and every file. */
async function contentsOf(target: RestoreTarget) {
  const database = await openDatabase(target.databaseUrl);
  const rows: Record<string, number> = {};
  try {
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    // The product's tables (on PostgreSQL the emulator's schema is read below, through its own store).
    for (const { name } of tables.filter((t) => t.schema === undefined || t.schema === 'public')) rows[name] = Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(name)}`.execute(database.db)).rows[0]!.n);
    rows['app_meta:restore-test'] = (await database.db.selectFrom('app_meta').selectAll().where('key', '=', 'restore-test').execute()).length;
  } finally {
    await database.close();
  }
  const emulator = await openEmulatorDatabase(emulatorStoreBeside(target.databaseUrl));
  try {
    rows['kisi_emulator.users'] = Number((await emulator.db.selectFrom('kisi_emu_users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  } finally {
    await emulator.close();
  }
  return { rows, files: Object.fromEntries(FILE_FOLDERS.map((f) => [f, filesOf(target.files[f])])) as Record<FileFolder, Record<string, string>> };
}

/** A copy of the backup to damage. */
function copyOfBackup(name: string): string {
  const copy = path.join(dir, name);
  fs.cpSync(backup, copy, { recursive: true });
  return copy;
}

/** Writes the manifest again with `file`'s size and SHA-256 as they are now: damage the checksums cannot see. */
async function reseal(copy: string, file: string) {
  const manifest = await readManifest(copy);
  const bytes = fs.readFileSync(path.join(copy, file));
  manifest.files = manifest.files.map((f) => (f.path === file ? { ...f, size: bytes.length, sha256: sha256(bytes) } : f));
  fs.writeFileSync(path.join(copy, MANIFEST), JSON.stringify(manifest));
}

const restore = (folder: string, target: RestoreTarget) => {
  const said: string[] = [];
  return { said, done: restoreBackup(folder, target, (line) => said.push(line)) };
};

const databaseFile = testEngine() === 'sqlite' ? 'database/frontdesk.db' : 'database/frontdesk.pgdump';

describe('a whole backup', () => {
  let target: RestoreTarget;

  it('goes back into a new place whole: both stores row for row, the files byte for byte', async () => {
    target = await newTarget('fresh');
    const { said, done } = restore(backup, target);
    expect(await done).toEqual({ replaced: null });
    expect(said[1]).toMatch(/^Checked frontdesk-.*every SHA-256 matches/);
    const live = await contentsOf(restoreTargetOf(ctx.config));
    const restored = await contentsOf(target);
    expect(restored.rows['app_meta:restore-test']).toBe(1);
    // The live app has written since (the backup's own record, a session read): compare with what the backup holds.
    const manifest = await readManifest(backup);
    for (const [table, n] of Object.entries(manifest.stores[0]!.tables)) if (table !== 'app_meta') expect([table, restored.rows[table]]).toEqual([table, n]);
    expect(restored.rows['kisi_emulator.users']).toBe(live.rows['kisi_emulator.users']);
    expect(restored.files).toEqual(live.files);
    expect(Object.keys(restored.files.uploads)).toEqual([path.join('blobs', sha256('receipt'))]);
  });

  it('goes back over data that is there: that data moved aside into replaced-<time>/', async () => {
    const database = await openDatabase(target.databaseUrl);
    await database.db.insertInto('app_meta').values({ key: 'written-after', value: 'replaced' }).execute();
    await database.close();
    fs.writeFileSync(path.join(target.files.uploads, 'blobs', sha256('later')), 'later');

    const { done } = restore(backup, target);
    const { replaced } = await done;
    expect(replaced).toMatch(/replaced-\d{4}-\d{2}-\d{2}T[\d-]+Z$/);
    // It holds what the database held: for the server's user alone.
    expect(fs.statSync(replaced!).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(replaced!, 'database'))).toEqual(testEngine() === 'sqlite' ? ['frontdesk.db', 'frontdesk.kisi-emulator.db'] : ['frontdesk.pgdump']);
    expect(filesOf(path.join(replaced!, 'files', 'uploads'))[path.join('blobs', sha256('later'))]).toBe(sha256('later'));
    const restored = await contentsOf(target);
    expect(restored.files.uploads).toEqual({ [path.join('blobs', sha256('receipt'))]: sha256('receipt') });
    const again = await openDatabase(target.databaseUrl);
    expect(await again.db.selectFrom('app_meta').selectAll().where('key', '=', 'written-after').execute()).toEqual([]);
    await again.close();
  });

  it('is refused, the live data as it was, when damaged, truncated or incomplete', async () => {
    const before = await contentsOf(target);
    const flipped = copyOfBackup('flipped');
    const blob = `files/uploads/blobs/${sha256('receipt')}`;
    const bytes = fs.readFileSync(path.join(flipped, blob));
    bytes[0]! ^= 1;
    fs.writeFileSync(path.join(flipped, blob), bytes);
    await expect(restore(flipped, target).done).rejects.toThrow(`The backup is damaged: ${blob} does not match its SHA-256 in the manifest (changed since it was taken).`);

    const truncated = copyOfBackup('truncated');
    const size = fs.statSync(path.join(truncated, databaseFile)).size;
    fs.truncateSync(path.join(truncated, databaseFile), Math.floor(size / 2));
    await expect(restore(truncated, target).done).rejects.toThrow(`The backup is damaged: ${databaseFile} has ${Math.floor(size / 2)} bytes, its manifest says ${size} (truncated or changed since it was taken).`);

    // Damage the checksums do not see (the manifest written again to match): the database's own check finds it.
    await reseal(truncated, databaseFile);
    await expect(restore(truncated, target).done).rejects.toThrow(testEngine() === 'sqlite' ? /database\/frontdesk\.db (fails SQLite's integrity check|is not a readable SQLite database)/ : /database\/frontdesk\.pgdump is not a dump pg_restore can read/);

    if (testEngine() === 'postgres') {
      // A dump whose contents list reads but whose data ends early: the restore starts, fails, and is rolled back whole.
      const cut = copyOfBackup('cut');
      fs.truncateSync(path.join(cut, databaseFile), size - 100);
      await reseal(cut, databaseFile);
      await expect(restore(cut, target).done).rejects.toThrow(/^pg_restore could not read the dump, and nothing was changed: pg_restore: error: could not read from input file: end of file/);
      expect(fs.readdirSync(path.dirname(target.files.uploads)).filter((name) => name.startsWith('replaced-'))).toHaveLength(1); // the earlier restore's
    }

    const unfinished = copyOfBackup('unfinished');
    fs.rmSync(path.join(unfinished, MANIFEST));
    await expect(restore(unfinished, target).done).rejects.toThrow(`${unfinished} has no manifest.json: it is not a backup, or one that never finished.`);

    const missing = copyOfBackup('missing');
    fs.rmSync(path.join(missing, blob));
    await expect(restore(missing, target).done).rejects.toThrow(`The backup is incomplete: ${blob} is missing.`);

    expect(await contentsOf(target)).toEqual(before);
    expect(fs.readdirSync(path.dirname(target.files.uploads)).filter((name) => name.includes('.restoring-'))).toEqual([]);
  });
});

it('refuses a backup from a newer version, naming the migration it does not know', async () => {
  // As a newer version's start would have left it: one more migration recorded (Kysely's own table, outside the schema's types).
  const recorded = (name: string) => sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date().toISOString()})`;
  await recorded('999-from-a-newer-version').execute(ctx.database.db);
  let newer: string;
  try {
    newer = path.join(settings.folder, (await backupsService({ database: ctx.database, settings: { ...settings, appVersion: '9.0.0' } }).take('test')).name!);
  } finally {
    await sql`delete from kysely_migration where name = '999-from-a-newer-version'`.execute(ctx.database.db);
  }
  const target = await newTarget('newer');
  await expect(restore(newer, target).done).rejects.toThrow(
    'The backup is from a newer Frontdesk (9.0.0): its database has migration 999-from-a-newer-version, which this version does not know. Restore it with the version that took it, or a newer one.',
  );
  expect(fs.existsSync(path.join(dir, 'newer', 'data'))).toBe(false);
});

it('moves a backup from an older version forward through the migrations it lacks', async () => {
  const old = await newTarget('old');
  const connection = connect(old.databaseUrl);
  const db = createKysely<DB>(connection);
  const lacking = Object.keys(MIGRATIONS).slice(-2);
  let run: BackupRun;
  try {
    await migrateToLatest(db, connection, Object.fromEntries(Object.entries(MIGRATIONS).slice(0, -2)));
    await db.insertInto('app_meta').values({ key: 'restore-test', value: 'from an older version' }).execute();
    run = await backupsService({ database: { db, engine: connection.engine }, settings: { ...settings, databaseUrl: old.databaseUrl, files: old.files, appVersion: '0.0.1' } }).take('test');
  } finally {
    await connection.close();
    await db.destroy();
  }
  const target = await newTarget('forward');
  const { said, done } = restore(path.join(settings.folder, run.name!), target);
  await done;
  expect(said).toContain(`Moved the database forward through 2 migration(s): ${lacking.join(', ')}.`);
  const database = await openDatabase(target.databaseUrl);
  try {
    expect(await database.isMigrated()).toBe(true);
    expect((await database.db.selectFrom('app_meta').select('value').where('key', '=', 'restore-test').executeTakeFirst())?.value).toBe('from an older version');
  } finally {
    await database.close();
  }
});

it('refuses while a server uses the database, which stays as it was', async () => {
  const live = restoreTargetOf(ctx.config);
  await ctx.loginAs('staff'); // the server at work: its connections are open
  const members = await ctx.database.db.selectFrom('gym_users').select('id').execute();
  await expect(restore(backup, live).done).rejects.toThrow(
    testEngine() === 'sqlite'
      ? `A Frontdesk server (or npm run backup) has ${path.resolve(ctx.config.DATABASE_URL.slice('file:'.length))} open: stop it first, then restore.`
      : /^Frontdesk is connected to this database \(.*frontdesk-listen from .*\): stop every instance \(and any npm run backup\) first, then restore\.$/,
  );
  expect(await ctx.database.db.selectFrom('gym_users').select('id').execute()).toEqual(members);
  expect(fs.readdirSync(path.dirname(path.resolve(ctx.config.UPLOADS_DIR))).filter((name) => /^replaced-|\.restoring-/.test(name))).toEqual([]);
});
