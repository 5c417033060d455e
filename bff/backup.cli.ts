import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { BACKUP_BY_COMMAND_LINE } from './contracts/operations.contract';
import { openDatabase } from './db/database';
import { isPostgresUrl, sqliteFileOf } from './db/engine';
import { formatBytes } from './features/backups/backup-files';
import { BackupBusy, backupSettingsOf, backupsService } from './features/backups/backups.service';

/** Takes a backup now, while the server goes on serving (docs/operations.md "Backups and restore"). */
const USAGE = `Usage:
  npm run backup              a backup of the database and the files, now, into BACKUP_DIR
  npm run backup -- --help
The server may keep serving meanwhile: the database is copied as one consistent snapshot (SQLite's
online backup; on PostgreSQL pg_dump, which must be installed), then the uploads and picture folders,
then a manifest of every file's SHA-256. The newest BACKUP_KEEP backups are kept (0: all).
Put one back with npm run restore -- <backup>. The settings are the server's (DATABASE_URL, BACKUP_DIR, …).`;

function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** What the command line asks for, or the answer to give at once (usage, a mistake in the arguments). */
function parse(argv: string[]): { exit: number; out?: string; err?: string } | undefined {
  try {
    const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
    if (values.help) return { exit: 0, out: USAGE };
    if (positionals.length > 0) return { exit: 2, err: `Unexpected ${positionals.join(' ')}\n\n${USAGE}` };
    return undefined;
  } catch (err) {
    // node:util's words are long and name an internal code: one line of ours, then the usage.
    const unknown = err instanceof Error ? /Unknown option '([^']+)'/.exec(err.message)?.[1] : undefined;
    return { exit: 2, err: `${unknown ? `Unknown option ${unknown}` : String(err).split('\n')[0]}\n\n${USAGE}` };
  }
}

async function run(): Promise<number> {
  const config = loadConfig(process.env);
  // Opening a SQLite file that is not there would make an empty database, and back that up.
  const file = isPostgresUrl(config.DATABASE_URL) ? undefined : sqliteFileOf(config.DATABASE_URL);
  if (file !== undefined && (file === ':memory:' || !fs.existsSync(file))) {
    console.error(file === ':memory:' ? 'DATABASE_URL is :memory:: there is no database to back up.' : `No database at ${path.resolve(file)} (DATABASE_URL): nothing to back up.`);
    return 1;
  }
  const database = await openDatabase(config.DATABASE_URL, { connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS });
  try {
    const settings = backupSettingsOf(config, readVersion());
    const started = Date.now();
    const result = await backupsService({ database, settings }).take(BACKUP_BY_COMMAND_LINE);
    if (!result.ok) {
      console.error(`The backup failed: ${result.message}`);
      return 1;
    }
    console.log(`Backed up to ${path.join(settings.folder, result.name!)} (${result.files} ${result.files === 1 ? 'file' : 'files'}, ${formatBytes(result.sizeBytes ?? 0)}, in ${((Date.now() - started) / 1000).toFixed(1)} s).`);
    return 0;
  } catch (err) {
    if (err instanceof BackupBusy) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if (parsed) {
    if (parsed.out) console.log(parsed.out);
    if (parsed.err) console.error(parsed.err);
    return parsed.exit;
  }
  try {
    return await run();
  } catch (err) {
    // A configuration mistake or a database that cannot be reached: its words, no stack.
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
