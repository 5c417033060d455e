import { EventEmitter, once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type SqlBool } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase } from './database';
import { connect, createKysely } from './engine';
import { MIGRATIONS, type MigrationModule } from './migrations/migrations';
import type { DB } from './schema';
import { seedIfEmpty } from './seed';
import * as emulatorOrganisation from '../kisi/emulator/migrations/001-organisation.migration';
import { storedTables } from '../test-support/store-tables';
import { createTestDatabase, testEngine, type TestDatabase } from '../test-support/test-database';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-db-'));
const onPostgres = testEngine() === 'postgres' ? describe : describe.skip;

let dir: string;
let target: TestDatabase;
beforeEach(async () => {
  dir = tmp();
  target = await createTestDatabase(dir, 'db');
});
afterEach(async () => {
  await target.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('database', () => {
  it('migrates, and migrates again without change', async () => {
    const first = await openDatabase(target.url);
    await first.db.insertInto('app_meta').values({ key: 'k', value: 'v' }).execute();
    await first.close();
    const second = await openDatabase(target.url);
    const rows = await second.db.selectFrom('app_meta').selectAll().execute();
    expect(rows).toEqual([{ key: 'k', value: 'v' }]);
    await second.close();
  });

  it('enforces foreign keys', async () => {
    const database = await openDatabase(target.url);
    const insert = database.db.insertInto('sessions').values({ token_hash: 'h', account_id: 999, created_at: 'x', expires_at: 'y' }).execute();
    await expect(insert).rejects.toHaveProperty('code', testEngine() === 'postgres' ? '23503' : 'SQLITE_CONSTRAINT_FOREIGNKEY');
    await database.close();
  });

  it('seeds demo data only into a database that was never seeded', async () => {
    const database = await openDatabase(target.url);
    let runs = 0;
    const seeder = { name: 'count', run: async () => void runs++ };
    expect(await seedIfEmpty(database.db, [seeder])).toBe(true);
    expect(await seedIfEmpty(database.db, [seeder])).toBe(false);
    expect(runs).toBe(1);
    await database.close();
  });

  it('leaves nothing behind when a seeder fails half way', async () => {
    const database = await openDatabase(target.url);
    const failing = {
      name: 'fails',
      run: async (db: typeof database.db) => {
        await db.insertInto('app_meta').values({ key: 'half', value: 'written' }).execute();
        throw new Error('seed broke');
      },
    };
    await expect(seedIfEmpty(database.db, [failing])).rejects.toThrow('seed broke');
    expect(await database.db.selectFrom('app_meta').selectAll().execute()).toEqual([]);
    await database.close();
  });

  it('upgrades a database whose 002 made the Kisi emulator\'s tables: they and their app_meta key go, the product\'s data stays', async () => {
    // The database as the version before 012 left it: 002 made what the emulator's own first migration makes now, less its settings table.
    const as002Was: MigrationModule = {
      up: async (db, ddl) => {
        await emulatorOrganisation.up(db, ddl);
        await db.schema.dropTable('kisi_emu_meta').execute();
      },
    };
    const before = Object.fromEntries(
      Object.entries(MIGRATIONS)
        .filter(([name]) => name < '012')
        .map(([name, migration]) => [name, name === '002-kisi-emulator' ? as002Was : migration]),
    );
    const connection = connect(target.url);
    const old = createKysely<DB>(connection);
    await migrateToLatest(old, connection, before);
    await sql`insert into kisi_emu_places (name, address, created_at, updated_at) values ('Harbourside', '1 Quay Street', 'then', 'then')`.execute(old);
    await old.insertInto('app_meta').values([{ key: 'kisi_emulator_group_id', value: '1' }, { key: 'seeded_at', value: 'then' }]).execute();
    expect([...(await storedTables({ db: old, engine: connection.engine })).keys()]).toContain('kisi_emu_places');
    await connection.close();
    await old.destroy();

    const database = await openDatabase(target.url);
    const tables = [...(await storedTables(database)).keys()];
    expect(tables.filter((name) => name.startsWith('kisi_emu_'))).toEqual([]);
    expect(tables).toContain('kisi_events');
    expect(await database.db.selectFrom('app_meta').selectAll().execute()).toEqual([{ key: 'seeded_at', value: 'then' }]);
    await database.close();
  });
  it('makes the parts imported before 019 searchable by number and name words', async () => {
    const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '019'));
    const connection = connect(target.url);
    const old = createKysely<DB>(connection);
    await migrateToLatest(old, connection, before);
    await sql`insert into parts (number, name) values ('3001', 'Brick 2 x 4'), ('3001pr0001', 'Brick 2 x 4 with Print'), ('3023', 'Plate 1 x 2')`.execute(old);
    await connection.close();
    await old.destroy();

    const database = await openDatabase(target.url);
    const found = async (...words: string[]) =>
      (await database.db.selectFrom('parts').select('number').where(() => sql<SqlBool>`search_rank in ${database.textHits('parts', 'search_rank', words)}`).orderBy('number').execute()).map((row) => row.number);
    expect(await found('3001')).toEqual(['3001', '3001pr0001']);
    expect(await found('brick', 'print')).toEqual(['3001pr0001']);
    expect(await found('plate')).toEqual(['3023']);
    await database.close();
  });
});

describe('SQLite file', () => {
  it('creates the directory and uses WAL', async () => {
    const file = path.join(dir, 'nested', 'deeper', 'app.db');
    const database = await openDatabase(`file:${file}`);
    await database.db.insertInto('app_meta').values({ key: 'k', value: 'v' }).execute();
    expect(fs.existsSync(`${file}-wal`)).toBe(true);
    await database.close();
  });

  it('writes a page\'s LIMIT and OFFSET into the SQL as integers, so that SQLite keeps its plan', async () => {
    const database = await openDatabase(`file:${path.join(dir, 'pages.db')}`);
    await database.db.insertInto('app_meta').values(['a', 'b', 'c', 'd', 'e'].map((key) => ({ key, value: key }))).execute();
    const page = database.db.selectFrom('app_meta').select('key').where('key', '<', 'z').orderBy('key').limit(2).offset(1);
    expect(page.compile().sql).toMatch(/ limit 2 offset 1$/);
    expect(page.compile().parameters).toEqual(['z']);
    expect(await page.execute()).toEqual([{ key: 'b' }, { key: 'c' }]);
    // A bound that is not a plain integer stays a parameter.
    const computed = database.db.selectFrom('app_meta').select('key').orderBy('key').limit(sql<number>`${3} - 1`);
    expect(computed.compile().sql).toMatch(/ limit \? - 1$/);
    expect(await computed.execute()).toEqual([{ key: 'a' }, { key: 'b' }]);
    await database.close();
  });
});

onPostgres('PostgreSQL', () => {
  it('lets four instances start at once on an empty database: one migrates, the others wait and find it done', async () => {
    const opened = await Promise.all([1, 2, 3, 4].map(() => openDatabase(target.url)));
    const applied = await opened[0]!.db.selectFrom('kysely_migration' as never).select('name' as never).execute();
    expect(applied).toHaveLength(Object.keys(MIGRATIONS).length);
    await Promise.all(opened.map((database) => database.close()));
  });

  it('hears notifications from another instance, and after a lost connection is back says so, so the gap can be read', async () => {
    const [listener, sender] = [await openDatabase(target.url), await openDatabase(target.url)];
    const heard: string[] = [];
    let connects = 0;
    const news = new EventEmitter();
    const stop = listener.listen!('frontdesk_test', {
      onNotify: (payload) => news.emit('news', heard.push(payload)),
      onConnect: () => news.emit('news', connects++),
    });
    /** Resolves once `check` holds, looking again at each notification or connect. */
    const until = async (check: () => boolean) => {
      while (!check()) await once(news, 'news');
    };
    const send = (payload: string) => sender.db.transaction().execute((trx) => sender.notify(trx, 'frontdesk_test', payload));
    await until(() => connects === 1);
    await send('1');
    await until(() => heard.includes('1'));

    // The server ends the listening connection (a restart, a failover, an idle timeout).
    const admin = new pg.Client({ connectionString: target.url });
    await admin.connect();
    await admin.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'frontdesk-listen' and datname = current_database()");
    await admin.end();
    await until(() => connects === 2);
    await send('2');
    await until(() => heard.includes('2'));

    await stop();
    await listener.close();
    await sender.close();
  });

  it('refuses to start with a clear error when the server cannot be reached', async () => {
    await expect(openDatabase('postgres://nobody@127.0.0.1:1/none')).rejects.toThrow(/ECONNREFUSED|connect/);
  });
});
