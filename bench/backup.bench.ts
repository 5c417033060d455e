import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pgClient from 'pg';
import { openDatabase } from '../bff/db/database';
import { backupSettingsOf, backupsService } from '../bff/features/backups/backups.service';
import { checkBackup, restoreBackup, type RestoreTarget } from '../bff/features/backups/restore.service';
import { loadConfig } from '../bff/config';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { signIn, startBenchBff } from './bench-fixtures';
import { info, type Figure } from './figures';
import { fmt } from './load';
import { fillTwoYears, TWO_YEARS_IN_WORDS } from './two-years';

/**
 * Backups of two years of history (DESIGN §11's sizes, bench/two-years.ts) on both engines: a backup taken by the server
 * while the members list is read every 20 ms (how long, and what the list's readers felt), then the
 * check and a restore into a new place (docs/operations.md "How long it takes").
 */
const PROBE_EVERY_MS = 20;
const seconds = (ms: number) => ms / 1000;

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
  console.log(`\nbackup: two years of history (${TWO_YEARS_IN_WORDS})`);
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
