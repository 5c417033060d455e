import type { Database } from '../../db/database';
import { catalogueImportRepository } from './catalogue-import.repository';
import { importCatalogue } from './catalogue.importer';

/** The small catalogue shipped with the app (written for it, in Rebrickable's CSV format). */
export const CATALOGUE_SEED_DIR = 'bff/features/catalogue/seed';

/**
 * A database without pieces gets the shipped catalogue, through the same importer an operator uses;
 * a catalogue someone imported is never touched. Answers whether it seeded.
 */
export async function seedCatalogueIfEmpty(database: Database): Promise<boolean> {
  if ((await catalogueImportRepository(database.db).pieceCount()) > 0) return false;
  await importCatalogue(database.db, CATALOGUE_SEED_DIR, { refreshTextIndex: database.refreshTextIndex });
  return true;
}
