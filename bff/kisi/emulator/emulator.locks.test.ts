import { createTestContext, type TestContext } from '../../test-support/test-app';

/** GET /places: Kisi's list conventions over the seeded places (the contract test checks the shape). */
let ctx: TestContext;
let get: (url: string, auth?: boolean) => Promise<{ status: number; range: string | null; json: unknown }>;

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  const { baseUrl, apiKey } = ctx.kisi!.settings;
  get = async (url, auth = true) => {
    const res = await fetch(`${baseUrl}${url}`, { headers: auth ? { Authorization: `KISI-LOGIN ${apiKey}` } : {} });
    return { status: res.status, range: res.headers.get('x-collection-range'), json: await res.json() };
  };
});
afterAll(() => ctx.close());

type Place = { id: number; name: string; locks_count: number; members_count: number; favorite?: boolean };
const names = (json: unknown) => (json as Place[]).map((p) => p.name);

describe('GET /places', () => {
  it('lists every place by id with its door count, 50 a page by default', async () => {
    const all = await get('/places');
    expect(all.status).toBe(200);
    expect(all.range).toBe('0-49/2');
    expect(all.json).toEqual([
      expect.objectContaining({ resource_type: 'Place', name: 'Harbourside Main Building', locks_count: 6, members_count: 9, address: '1 Quay Street, Harbourside', time_zone: 'Europe/London' }),
      expect.objectContaining({ resource_type: 'Place', name: 'Harbourside Food Court', locks_count: 2, members_count: 3 }),
    ]);
    expect(all.json as Place[]).toEqual([expect.not.objectContaining({ favorite: expect.anything() }), expect.not.objectContaining({ favorite: expect.anything() })]);
  });

  it('pages with limit and offset, and sorts by name either way', async () => {
    expect(await get('/places?limit=1&offset=1')).toMatchObject({ range: '1-1/2', json: [{ name: 'Harbourside Food Court' }] });
    expect(names((await get('/places?sort=name')).json)).toEqual(['Harbourside Food Court', 'Harbourside Main Building']);
    expect(names((await get('/places?sort=-name')).json)).toEqual(['Harbourside Main Building', 'Harbourside Food Court']);
    expect(names((await get('/places?sort=favorite')).json)).toEqual(['Harbourside Main Building', 'Harbourside Food Court']);
  });

  it('filters by ids and by a name search', async () => {
    const [main, court] = (await get('/places')).json as Place[];
    expect(names((await get(`/places?ids=${court!.id}`)).json)).toEqual(['Harbourside Food Court']);
    expect(names((await get(`/places?ids=${court!.id},${main!.id}`)).json)).toHaveLength(2);
    expect(await get('/places?ids=abc')).toMatchObject({ range: '0-49/0', json: [] });
    expect(names((await get('/places?query=food')).json)).toEqual(['Harbourside Food Court']);
    expect(names((await get('/places?query=Quay')).json)).toEqual([]); // `query` searches the name only
  });

  it('shows the favourite flag only when asked, and nobody has favourites here', async () => {
    expect((await get('/places?favorite=*')).json).toEqual([expect.objectContaining({ favorite: false }), expect.objectContaining({ favorite: false })]);
    expect((await get('/places?favorite=false')).json).toHaveLength(2);
    expect(await get('/places?favorite=true')).toMatchObject({ json: [], range: '0-49/0' });
  });

  it.each([
    ['limit=0', '0-0/2', 1],
    ['limit=abc', '0-49/2', 2],
    ['limit=100000', '0-249/2', 2],
    ['limit=-5', '0-49/2', 2],
    ['offset=-1', '0-49/2', 2],
    ['offset=1.5', '0-49/2', 2],
    ['offset=999999', '20000-20049/2', 0],
  ])('clamps or ignores a bad %s rather than refusing it', async (query, range, count) => {
    const res = await get(`/places?${query}`);
    expect(res.status).toBe(200);
    expect(res.range).toBe(range);
    expect(res.json).toHaveLength(count);
  });

  it('answers 401 without the key', async () => {
    expect(await get('/places', false)).toMatchObject({ status: 401, json: { code: '000401' } });
  });
});
