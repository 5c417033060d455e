import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { checkBackup, restoreBackup, restoreTargetOf } from './features/backups/restore.service';

/** Puts a backup back, or only checks one (docs/operations.md "Backups and restore"). */
const USAGE = `Usage:
  npm run restore -- <backup>            restore a backup (a folder, or a backup's name in BACKUP_DIR)
  npm run restore -- --check <backup>    only check it: manifest, every SHA-256, the database copy
  npm run restore -- --help
Stop the server first: the restore refuses while one uses the database. The backup is checked whole
before anything is changed; the data it replaces is moved to replaced-<time>/ beside the database
(PostgreSQL: beside UPLOADS_DIR, with a pg_dump of the database). A backup from an older version is
moved forward through the migrations; one from a newer version is refused. The target is the server's
configuration (DATABASE_URL, UPLOADS_DIR, CATALOGUE_IMAGE_DIR, SAMPLES_IMAGE_DIR).`;

type Parsed = { backup: string; check: boolean } | { exit: number; out?: string; err?: string };

function parse(argv: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    // node:util's words are long and name an internal code: one line of ours, then the usage.
    const unknown = err instanceof Error ? /Unknown option '([^']+)'/.exec(err.message)?.[1] : undefined;
    return { exit: 2, err: `${unknown ? `Unknown option ${unknown}` : String(err).split('\n')[0]}\n\n${USAGE}` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { exit: 0, out: USAGE };
  if (positionals.length === 0) return { exit: 2, err: `Name the backup to restore.\n\n${USAGE}` };
  if (positionals.length > 1) return { exit: 2, err: `Unexpected ${positionals.slice(1).join(' ')}\n\n${USAGE}` };
  return { backup: positionals[0]!, check: values.check ?? false };
}

/** A folder as given, or a backup's name in BACKUP_DIR. */
function locate(backup: string, backupDir: string): string {
  if (fs.existsSync(backup)) return path.resolve(backup);
  const named = path.resolve(backupDir, backup);
  if (!backup.includes('/') && fs.existsSync(named)) return named;
  throw new Error(`No backup at ${path.resolve(backup)}${backup.includes('/') ? '' : ` or ${named}`}.`);
}

async function main(argv: string[]): Promise<number> {
  const parsed = parse(argv);
  if ('exit' in parsed) {
    if (parsed.out) console.log(parsed.out);
    if (parsed.err) console.error(parsed.err);
    return parsed.exit;
  }
  try {
    const config = loadConfig(process.env);
    const folder = locate(parsed.backup, config.BACKUP_DIR);
    if (parsed.check) {
      console.log(`The backup is whole: ${(await checkBackup(folder)).summary}`);
      return 0;
    }
    const { replaced } = await restoreBackup(folder, restoreTargetOf(config), (line) => console.log(line));
    console.log(replaced ? `Done. The data it replaced is in ${replaced} (delete it when you no longer need it).` : 'Done. There was no data to replace.');
    console.log('Start the server again (npm run serve): it serves the restored data.');
    return 0;
  } catch (err) {
    // A refusal (a damaged or newer backup, a server running) or a failure: its words, no stack.
    console.error(err instanceof Error ? err.message : err);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
