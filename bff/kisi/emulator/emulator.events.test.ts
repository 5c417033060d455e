import { seedKisiHistory } from './emulator.history';
import type { EmulatorUnlockEvent } from './emulator.events';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * GET /events over the seeded door history plus a few live unlocks: newest first, Kisi's paging,
 * and every filter checked against the recorded events themselves.
 */
let ctx: TestContext;
let get: (url: string, auth?: boolean) => Promise<{ status: number; range: string | null; json: unknown }>;
let recorded: EmulatorUnlockEvent[];

type KisiEvent = EmulatorUnlockEvent & { actor_email: string | null; action: string; message: string | null; sequence: string };
const uuids = (json: unknown) => (json as KisiEvent[]).map((e) => e.uuid);
/** The recorded events, newest first (ties in the same second: the later-recorded first). */
const newestFirst = (events: EmulatorUnlockEvent[]) => events.map((e, i) => ({ e, i })).sort((a, b) => b.e.created_at.localeCompare(a.e.created_at) || b.i - a.i).map(({ e }) => e);

async function recordedEvents() {
  const rows = await ctx.kisi!.emulator!.database.db.selectFrom('kisi_emu_events').select('payload').orderBy('id').execute();
  return rows.map((r) => JSON.parse(r.payload) as EmulatorUnlockEvent);
}

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  await seedKisiHistory(ctx.kisi!.emulator!.database.db, { deliver: async () => {} });
  const { baseUrl, apiKey } = ctx.kisi!.settings;
  get = async (url, auth = true) => {
    const res = await fetch(`${baseUrl}${url}`, { headers: auth ? { Authorization: `KISI-LOGIN ${apiKey}` } : {} });
    return { status: res.status, range: res.headers.get('x-collection-range'), json: await res.json() };
  };
  await ctx.kisi!.emulator!.simulateUnlock('alice.moreau@mail.example');
  await ctx.kisi!.emulator!.simulateUnlock('nadia.okoye@harbourside.example', 6); // the Server Room is locked down
  recorded = await recordedEvents();
});
afterAll(() => ctx.close());

describe('GET /events', () => {
  it('lists every recorded event newest first, 50 a page by default, in Kisi’s Event shape', async () => {
    const res = await get('/events');
    expect(res.status).toBe(200);
    expect(recorded.length).toBeGreaterThan(150);
    expect(res.range).toBe(`0-49/${recorded.length}`);
    expect(uuids(res.json)).toEqual(newestFirst(recorded).slice(0, 50).map((e) => e.uuid));
    const [refused, opened] = res.json as KisiEvent[];
    expect(refused).toMatchObject({
      type: 'lock.unlock',
      action: 'unlock',
      actor_type: 'User',
      actor_name: 'Nadia Okoye',
      actor_email: 'nadia.okoye@harbourside.example',
      object_type: 'Lock',
      object_name: 'Server Room',
      success: false,
      error_code: 'fad001',
      error_message: 'The door is currently locked down.',
      message: 'Nadia Okoye could not unlock lock Server Room: The door is currently locked down.',
      sequence: refused!.uuid,
    });
    expect(opened).toMatchObject({ actor_name: 'Alice Moreau', actor_email: 'alice.moreau@mail.example', success: true, error_code: null, message: `Alice Moreau unlocked lock ${opened!.object_name}` });
  });

  it('pages with limit and offset, and the range counts the whole history', async () => {
    const all = newestFirst(recorded).map((e) => e.uuid);
    const page = await get('/events?limit=7&offset=20');
    expect(page.range).toBe(`20-26/${recorded.length}`);
    expect(uuids(page.json)).toEqual(all.slice(20, 27));
    expect(uuids((await get(`/events?limit=5&offset=${recorded.length - 2}`)).json)).toEqual(all.slice(-2));
  });

  it.each([
    ['limit=0', 0, 1],
    ['limit=abc', 0, 50],
    ['limit=-3', 0, 50],
    ['limit=100000', 0, 250],
    ['offset=-1', 0, 50],
    ['offset=xyz', 0, 50],
  ])('clamps or ignores a bad %s rather than refusing it', async (query, offset, limit) => {
    const res = await get(`/events?${query}`);
    expect(res.status).toBe(200);
    expect(res.range).toBe(`${offset}-${offset + limit - 1}/${recorded.length}`);
    expect(res.json).toHaveLength(Math.min(limit, recorded.length));
  });

  it('answers an empty page past the end, offset capped at 20000', async () => {
    expect(await get('/events?offset=999999')).toMatchObject({ status: 200, range: `20000-20049/${recorded.length}`, json: [] });
  });

  const nadia = () => recorded.find((e) => e.actor_name === 'Nadia Okoye')!;
  it.each<[string, () => string, (e: EmulatorUnlockEvent) => boolean]>([
    ['type', () => 'type=lock.unlock', () => true],
    ['several types', () => 'type=lock.opened,lock.unlock', () => true],
    ['another type', () => 'type=lock.opened', () => false],
    ['actor', () => `actor_type=User&actor_id=${nadia().actor_id}`, (e) => e.actor_id === nadia().actor_id],
    ['actor type alone', () => 'actor_type=GroupLink', () => false],
    ['a malformed actor id', () => 'actor_id=abc', () => false],
    ['object', () => `object_type=Lock&object_id=${nadia().object_id}`, (e) => e.object_id === nadia().object_id],
    ['place', () => 'place_id=2', (e) => e.place_id === 2],
    ['refusals', () => 'success=false', (e) => !e.success],
    ['successes of one door', () => `success=true&object_id=${nadia().object_id}`, (e) => e.success && e.object_id === nadia().object_id],
    ['a success that is neither true nor false (ignored)', () => 'success=maybe', () => true],
    ['uuid', () => `uuid=${recorded[3]!.uuid},${recorded[9]!.uuid}`, (e) => e.uuid === recorded[3]!.uuid || e.uuid === recorded[9]!.uuid],
  ])('filters by %s', async (_what, query, keep) => {
    const expected = newestFirst(recorded).filter(keep);
    const res = await get(`/events?${query()}&limit=250`);
    expect(res.range).toBe(`0-249/${expected.length}`);
    expect(uuids(res.json)).toEqual(expected.slice(0, 250).map((e) => e.uuid));
  });

  it('pages a filtered list by the filtered total', async () => {
    const refusals = newestFirst(recorded).filter((e) => !e.success);
    expect(refusals.length).toBeGreaterThan(4);
    const page = await get('/events?success=false&limit=3&offset=2');
    expect(page.range).toBe(`2-4/${refusals.length}`);
    expect(uuids(page.json)).toEqual(refusals.slice(2, 5).map((e) => e.uuid));
  });

  it('filters by time: since is inclusive, until exclusive, both to the second', async () => {
    const sorted = newestFirst(recorded);
    const middle = sorted[Math.floor(sorted.length / 2)]!.created_at;
    const since = await get(`/events?since=${middle}&limit=250`);
    expect(uuids(since.json)).toEqual(sorted.filter((e) => e.created_at >= middle).map((e) => e.uuid));
    const until = await get(`/events?until=${middle}&limit=250`);
    expect(uuids(until.json)).toEqual(sorted.filter((e) => e.created_at < middle).map((e) => e.uuid));
    const withMillis = await get(`/events?since=${middle.replace('Z', '.750Z')}&limit=250`);
    expect(withMillis.json).toEqual(since.json);
    const offset = new Date(Date.parse(middle)).toISOString().replace(/\.\d{3}Z$/, '+00:00');
    expect((await get(`/events?since=${encodeURIComponent(offset)}&limit=250`)).json).toEqual(since.json);
    expect(await get(`/events?since=${middle}&until=${middle}`)).toMatchObject({ json: [], range: '0-49/0' });
  });

  it('lets a client catch up from the newest event it holds without losing one', async () => {
    const newest = ((await get('/events?limit=1')).json as KisiEvent[])[0]!;
    const held = new Set(uuids((await get(`/events?since=${newest.created_at}`)).json));
    await ctx.kisi!.emulator!.simulateUnlock('bruno.costa@mail.example');
    const missed = uuids((await get(`/events?since=${newest.created_at}&type=lock.unlock`)).json).filter((uuid) => !held.has(uuid));
    expect(missed).toHaveLength(1);
    expect(((await get(`/events?uuid=${missed[0]}`)).json as KisiEvent[])[0]).toMatchObject({ actor_name: 'Bruno Costa' });
    recorded = await recordedEvents();
  });

  it.each(['since=yesterday', 'until=2026-13-45T99:00:00Z', 'since=1700000000'])('refuses an unreadable time (%s) with 400 rather than send everything', async (query) => {
    expect(await get(`/events?${query}`)).toMatchObject({ status: 400, json: { code: '000400', error: expect.stringMatching(/must be an ISO-8601 date-time/) as string } });
  });

  it('answers 401 without the key', async () => {
    expect(await get('/events', false)).toMatchObject({ status: 401, json: { code: '000401' } });
  });
});
