import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pgClient from 'pg';
import { openDatabase, type Database } from '../bff/db/database';
import { backupSettingsOf, backupsService } from '../bff/features/backups/backups.service';
import { checkBackup, restoreBackup, type RestoreTarget } from '../bff/features/backups/restore.service';
import { loadConfig } from '../bff/config';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { signIn, startBenchBff } from './bench-fixtures';
import { info, type Figure } from './figures';
import { fmt } from './load';

/**
 * Backups of two years of history (DESIGN §11's sizes: 2M door events, 500k orders with their lines,
 * 200k chat messages, 100k audit entries, 20k members) on both engines: a backup taken by the server
 * while the members list is read every 20 ms (how long, and what the list's readers felt), then the
 * check and a restore into a new place (docs/operations.md "How long it takes").
 */
const PROBE_EVERY_MS = 20;
const seconds = (ms: number) => ms / 1000;

/** The history, written by the database itself (generated rows), into a database the server has seeded. */
async function fillTwoYears(database: Database): Promise<void> {
  const pg = database.engine === 'postgres';
  const text = (expr: string) => (pg ? `(${expr})::text` : `(${expr})`);
  const rows = (n: number) => (pg ? `generate_series(1, ${n}) as g(i)` : 'n');
  const counting = (n: number) => (pg ? '' : `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${n}) `);
  const ago = (secondsExpr: string) =>
    pg ? `to_char((now() at time zone 'utc') - (${secondsExpr}) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${secondsExpr}) || ' seconds')`;
  const owner = (await database.db.selectFrom('gym_owners').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const channel = (await database.db.selectFrom('chat_channels').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  const payload = `'{"type":"lock.unlock","actor_type":"User","object_type":"Lock","success":true,"place_id":1,"message":"Unlocked by a member of the gym with the mobile app"}'`;
  const statements = [
    `${counting(20_000)}insert into gym_users (email, name, owner_id, membership, created_at, updated_at)
       select 'history' || ${text('i')} || '@members.example', 'Member ' || ${text('i')}, ${owner}, 'active', ${ago('i * 3000')}, ${ago('i * 3000')} from ${rows(20_000)}`,
    `${counting(2_000_000)}insert into kisi_events (uuid, type, actor_type, actor_id, actor_name, actor_email, object_type, object_id, object_name, place_id, success, created_at, received_at, payload)
       select 'history-' || ${text('i')}, 'lock.unlock', 'User', 100000 + i % 20000, 'Member ' || ${text('i % 20000')}, 'history' || ${text('i % 20000')} || '@members.example',
              'Lock', 1 + i % 12, 'Door ' || ${text('i % 12')}, 1, case when i % 50 = 0 then 0 else 1 end, ${ago('i * 31')}, ${ago('i * 31')}, ${payload} from ${rows(2_000_000)}`,
    `${counting(500_000)}insert into orders (table_number, status, total_cents, token, request_hash, created_at, updated_at)
       select 1 + i % 40, case when i % 20 = 0 then 'cancelled' else 'served' end, 850, 'history-' || ${text('i')}, 'history-' || ${text('i')}, ${ago('i * 126')}, ${ago('i * 126')} from ${rows(500_000)}`,
    `insert into order_lines (order_id, stall_name, name, unit_price_cents, quantity) select id, 'Noodle Bar', 'Ramen', 850, 1 from orders where token like 'history-%'`,
    `${counting(200_000)}insert into messages (channel_id, author_kind, author_name, body, created_at)
       select ${channel}, 'staff', 'Dana', 'Table ' || ${text('i % 40')} || ' needs a high chair, and the card reader by the door is slow again', ${ago('i * 315')} from ${rows(200_000)}`,
    `${counting(100_000)}insert into audit_entries (at, kind, action, subject_id, subject, changes)
       select ${ago('i * 630')}, 'member', 'paused', ${text('i')}, 'Member ' || ${text('i')}, '[{"field":"membership","before":"active","after":"paused"}]' from ${rows(100_000)}`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(database.db);
  if (pg) await sql.raw('vacuum analyze').execute(database.db);
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/** The server takes a backup (POST, answered when whole) while the members list is read every 20 ms. */
async function backupWhileServing(databaseUrl: string, dir: string, env: Record<string, string>) {
  const server = await startBenchBff(databaseUrl, path.join(dir, 'static'), env);
  try {
    const cookie = await signIn(server.url);
    const latencies: number[] = [];
    let done = false;
    const reader = (async () => {
      while (!done) {
        const started = performance.now();
        await (await fetch(`${server.url}/api/gym/users?pageSize=10`, { headers: { cookie } })).arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = latencies.splice(0).sort((a, b) => a - b);
    const started = performance.now();
    const answer = await fetch(`${server.url}/api/operations/backups`, { method: 'POST', headers: { cookie } });
    const took = performance.now() - started;
    done = true;
    await reader;
    if (answer.status !== 201) throw new Error(`the server's backup answered ${answer.status}: ${await answer.text()}`);
    const during = latencies.sort((a, b) => a - b);
    return { took, before: percentile(before, 0.5), p50: percentile(during, 0.5), p99: percentile(during, 0.99) };
  } finally {
    await server.stop();
  }
}

async function measure(engine: string, databaseUrl: string, restoreUrl: string, dir: string): Promise<Figure[]> {
  const env = { UPLOADS_DIR: path.join(dir, 'uploads'), CATALOGUE_IMAGE_DIR: path.join(dir, 'catalogue-images'), SAMPLES_IMAGE_DIR: path.join(dir, 'sample-images'), BACKUP_DIR: path.join(dir, 'backups'), BACKUP_KEEP: '0' };
  // A first start seeds the demo (and the emulator's store), as a venue's database begins.
  await (await startBenchBff(databaseUrl, path.join(dir, 'static'), env)).stop();
  const database = await openDatabase(databaseUrl);
  let filled = performance.now();
  await fillTwoYears(database);
  filled = performance.now() - filled;
  console.log(`    two years of history written in ${fmt(seconds(filled), 1)} s`);

  const serving = await backupWhileServing(databaseUrl, dir, env);
  console.log(`    taken by the server while serving: ${fmt(seconds(serving.took), 1)} s; the members list meanwhile p50 ${fmt(serving.p50, 1)} ms (before: ${fmt(serving.before, 1)} ms), p99 ${fmt(serving.p99, 1)} ms`);

  const config = loadConfig({ ...env, DATABASE_URL: databaseUrl });
  let started = performance.now();
  const run = await backupsService({ database, settings: backupSettingsOf(config, 'bench') }).take('bench');
  const backupMs = performance.now() - started;
  await database.close();
  if (!run.ok) throw new Error(`the backup failed: ${run.message}`);
  const folder = path.join(config.BACKUP_DIR, run.name!);
  console.log(`    backup with the server stopped: ${fmt(seconds(backupMs), 1)} s, ${fmt(run.sizeBytes! / 1024 ** 2)} MB`);

  started = performance.now();
  await checkBackup(folder);
  const checkMs = performance.now() - started;
  const target: RestoreTarget = { databaseUrl: restoreUrl, files: { uploads: path.join(dir, 'restored', 'uploads'), 'catalogue-images': path.join(dir, 'restored', 'c'), 'sample-images': path.join(dir, 'restored', 's') } };
  started = performance.now();
  await restoreBackup(folder, target, () => {});
  const restoreMs = performance.now() - started;
  console.log(`    check ${fmt(seconds(checkMs), 1)} s; restore into a new place ${fmt(seconds(restoreMs), 1)} s`);
  return [
    info(`${engine}: a backup taken by the server while serving`, seconds(serving.took), 's', 1),
    info(`${engine}: the members list meanwhile, p99 (p50 before: ${fmt(serving.before, 1)} ms)`, serving.p99, 'ms', 0),
    info(`${engine}: a backup with the server stopped (${fmt(run.sizeBytes! / 1024 ** 2)} MB)`, seconds(backupMs), 's', 1),
    info(`${engine}: checking it (npm run restore -- --check)`, seconds(checkMs), 's', 1),
    info(`${engine}: restoring it into a new place`, seconds(restoreMs), 's', 1),
  ];
}

export async function runBackupBench(): Promise<Figure[]> {
  console.log('\nbackup: two years of history (2M door events, 500k orders, 200k chat messages, 100k audit entries, 20k members)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-backup-bench-'));
  let pg: ThrowawayPostgres | undefined;
  try {
    console.log('  ---- SQLite');
    const figures = await measure('SQLite', `file:${path.join(dir, 'sqlite', 'frontdesk.db')}`, `file:${path.join(dir, 'sqlite', 'restored', 'frontdesk.db')}`, path.join(dir, 'sqlite'));
    console.log('  ---- PostgreSQL (throw-away cluster on this machine, fsync off)');
    try {
      pg = await startThrowawayPostgres();
    } catch (err) {
      console.log(`    skipped: ${(err as Error).message}`);
    }
    if (pg) {
      const restored = new URL(pg.url);
      restored.pathname = '/restored';
      const client = new pgClient.Client({ connectionString: pg.url });
      await client.connect();
      await client.query('create database restored');
      await client.end();
      figures.push(...(await measure('PostgreSQL', pg.url, restored.toString(), path.join(dir, 'postgres'))));
    }
    return figures;
  } finally {
    await pg?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
