import { sql } from 'kysely';
import type { CatalogueRepository } from './catalogue.repository';
import { catalogueService } from './catalogue.service';

/** A repository that counts the searches it is asked for (the database's part is tested in catalogue.router.test.ts). */
function countingCatalogue() {
  const asked: string[] = [];
  const catalogue = {
    themes: async () => [],
    partCategories: async () => [{ id: 11, name: 'Bricks', partCount: 1 }],
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

describe('the catalogue service keeps searches', () => {
  it('answers the same search again from memory until keptForMs has passed, and each different search from the database', async () => {
    const { catalogue, asked } = countingCatalogue();
    let now = 1_000;
    const service = catalogueService({ catalogue, matchesText: () => sql<boolean>`1 = 1`, keptForMs: 60_000, now: () => now });
    const parts = (query: string) => service.listParts({ query, page: 0, pageSize: 24, sort: 'relevance' });
    const first = await parts('brick');
    expect(await Promise.all([parts('brick'), parts('brick')])).toEqual([first, first]);
    expect(asked).toEqual(['parts']);
    await parts('plate');
    await service.listPieces({ query: 'brick', page: 0, pageSize: 24, sort: 'relevance' });
    expect(asked).toEqual(['parts', 'parts', 'pieces']);
    // An import (another process) shows within keptForMs.
    now += 60_001;
    expect((await parts('brick')).total).toBe(4);
  });

  it('shares one read among the same searches at once, and keeps no failed one', async () => {
    const { catalogue, asked } = countingCatalogue();
    let fail = true;
    const flaky = { ...catalogue, searchParts: async () => (fail ? Promise.reject(new Error('database away')) : catalogue.searchParts({} as never)) } as CatalogueRepository;
    const service = catalogueService({ catalogue: flaky, matchesText: () => sql<boolean>`1 = 1` });
    const parts = () => service.listParts({ query: 'brick', page: 0, pageSize: 24, sort: 'relevance' });
    await expect(Promise.all([parts(), parts()])).rejects.toThrow('database away');
    fail = false;
    expect((await parts()).total).toBe(1);
    expect(asked).toEqual(['parts']);
  });
});
