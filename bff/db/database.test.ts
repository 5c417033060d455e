import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from './database';
import { seedIfEmpty } from './seed';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-db-'));

describe('database', () => {
  it('creates the directory, migrates, and migrates again without change', async () => {
    const dir = tmp();
    const url = `file:${path.join(dir, 'nested', 'deeper', 'app.db')}`;
    const first = await openDatabase(url);
    await first.db.insertInto('app_meta').values({ key: 'k', value: 'v' }).execute();
    await first.close();
    const second = await openDatabase(url);
    const rows = await second.db.selectFrom('app_meta').selectAll().execute();
    expect(rows).toEqual([{ key: 'k', value: 'v' }]);
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('enforces foreign keys and uses WAL', async () => {
    const dir = tmp();
    const database = await openDatabase(`file:${path.join(dir, 'app.db')}`);
    await expect(
      database.db.insertInto('sessions').values({ token_hash: 'h', account_id: 999, created_at: 'x', expires_at: 'y' }).execute(),
    ).rejects.toHaveProperty('code', 'SQLITE_CONSTRAINT_FOREIGNKEY');
    expect(fs.existsSync(path.join(dir, 'app.db-wal'))).toBe(true);
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('seeds demo data only into a database that was never seeded', async () => {
    const dir = tmp();
    const database = await openDatabase(`file:${path.join(dir, 'app.db')}`);
    let runs = 0;
    const seeder = { name: 'count', run: async () => void runs++ };
    expect(await seedIfEmpty(database.db, [seeder])).toBe(true);
    expect(await seedIfEmpty(database.db, [seeder])).toBe(false);
    expect(runs).toBe(1);
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves nothing behind when a seeder fails half way', async () => {
    const dir = tmp();
    const database = await openDatabase(`file:${path.join(dir, 'app.db')}`);
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
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
