import { parseArgs } from 'node:util';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { importProgressReporter } from './features/catalogue/catalogue-import-progress';
import { CatalogueFilesError, ImportStopped, importCatalogue } from './features/catalogue/catalogue.importer';

const USAGE = `Usage:
  npm run catalogue -- import <dir>
<dir> holds Rebrickable's CSV downloads (https://rebrickable.com/downloads/), as .csv or .csv.gz:
themes, part_categories, colors, parts, sets, inventories, inventory_parts. Each file is imported in
one transaction; running it again with the same files changes nothing. The database is DATABASE_URL's.`;

async function main(argv: string[]): Promise<number> {
  const { positionals } = parseArgs({ args: argv, allowPositionals: true });
  const [command, dir] = positionals;
  if (command !== 'import' || !dir) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig(process.env);
  const database = await openDatabase(config.DATABASE_URL);
  const stop = new AbortController();
  process.once('SIGINT', () => {
    console.error('\nStopping after the current batch…');
    stop.abort();
  });
  const started = Date.now();
  const progress = importProgressReporter(process.stdout);
  try {
    const reports = await importCatalogue(database.db, dir, {
      refreshTextIndex: database.refreshTextIndex,
      signal: stop.signal,
      onProgress: progress.onProgress,
      onFileDone: (report) => {
        progress.onFileDone(report);
        for (const bad of report.badRows) console.log(`  line ${bad.line}: ${bad.reason}`);
        if (report.bad > report.badRows.length) console.log(`  … and ${report.bad - report.badRows.length} more`);
      },
    });
    const rows = reports.reduce((sum, r) => sum + r.rows, 0);
    const bad = reports.reduce((sum, r) => sum + r.bad, 0);
    console.log(`Imported ${rows.toLocaleString('en')} rows in ${((Date.now() - started) / 1000).toFixed(1)} s${bad ? `; ${bad} rows skipped (listed above)` : ''}.`);
    return 0;
  } catch (err) {
    if (err instanceof CatalogueFilesError || err instanceof ImportStopped) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
