import { sql } from 'kysely';
import type { CatalogueRepository } from './catalogue.repository';
import { catalogueService } from './catalogue.service';

/** A repository that counts what it is asked for (the database's part is tested in catalogue.router.test.ts). */
function countingCatalogue() {
  const asked: string[] = [];
  const catalogue = {
    themes: async () => {
      asked.push('themes');
      return [{ id: 1, name: 'Town', parentId: null, pieceCount: 1 }];
    },
    partCategories: async () => {
      asked.push('part categories');
      return [{ id: 11, name: 'Bricks', partCount: 1 }];
    },
    searchPieces: async () => {
      asked.push('pieces');
      return { items: [], total: asked.length };
    },
    searchParts: async () => {
      asked.push('parts');
      return { items: [], total: asked.length };
    },
  } as unknown as CatalogueRepository;
  return { catalogue, asked };
}

describe('the catalogue service', () => {
  it('reads every search from the database, the same search again too (decision 0086)', async () => {
    const { catalogue, asked } = countingCatalogue();
    const service = catalogueService({ catalogue, textHits: () => sql`(select 1 as rank)` });
    const parts = (query: string) => service.listParts({ query, page: 0, pageSize: 24, sort: 'relevance' });
    await parts('brick');
    await Promise.all([parts('brick'), parts('brick')]);
    await service.listPieces({ query: 'brick', page: 0, pageSize: 24, sort: 'relevance' });
    expect(asked).toEqual(['parts', 'parts', 'parts', 'pieces']);
  });

  it('keeps the category lists a filter checks until keptForMs has passed, one read for those asked at once', async () => {
    const { catalogue, asked } = countingCatalogue();
    let now = 1_000;
    const service = catalogueService({ catalogue, textHits: () => sql`(select 1 as rank)`, keptForMs: 60_000, now: () => now });
    const filtered = () =>
      Promise.all([
        service.listParts({ query: 'brick', category: 11, page: 0, pageSize: 24, sort: 'relevance' }),
        service.listPieces({ query: 'brick', category: 1, page: 0, pageSize: 24, sort: 'relevance' }),
      ]);
    await Promise.all([filtered(), filtered()]);
    expect(asked.filter((what) => what.includes('categor') || what === 'themes')).toEqual(['part categories', 'themes']);
    // An import (another process) shows in the filters within keptForMs.
    now += 60_001;
    await filtered();
    expect(asked.filter((what) => what.includes('categor') || what === 'themes')).toEqual(['part categories', 'themes', 'part categories', 'themes']);
  });

  it('keeps no failed read of a category list', async () => {
    const { catalogue, asked } = countingCatalogue();
    let fail = true;
    const flaky = { ...catalogue, partCategories: async () => (fail ? Promise.reject(new Error('database away')) : catalogue.partCategories()) } as CatalogueRepository;
    const service = catalogueService({ catalogue: flaky, textHits: () => sql`(select 1 as rank)` });
    const parts = () => service.listParts({ query: 'brick', category: 11, page: 0, pageSize: 24, sort: 'relevance' });
    await expect(parts()).rejects.toThrow('database away');
    fail = false;
    await parts();
    expect(asked).toEqual(['part categories', 'parts']);
  });
});
