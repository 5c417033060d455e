import fs from 'node:fs';
import path from 'node:path';
import type { RetentionKind, RetentionReport } from '../../contracts/operations.contract';
import { countEvents } from '../../db/kisi-event-choices';
import { blobPath } from '../../db/upload-blobs';
import { createLogger } from '../../lib/logger';
import { DAY_MS, daysAgo } from '../../test-support/clock';
import { createTestContext, withTestContext, type TestContext } from '../../test-support/test-app';
import { retentionServiceOn } from './retention.feature';
import type { PurgedBatch } from './retention.repository';

/**
 * Retention on this run's engine (the PostgreSQL pass runs it again): the daily purge removes what is
 * older than each kind's cut-off, a small batch per transaction, while the app keeps answering writes;
 * what is newer stays, files' bytes go once no row holds them, and admins read what went.
 */
const logger = createLogger('silent');

/** Old rows past every default cut-off, and fresh rows of each kind, written straight to the tables. */
async function seedHistory(ctx: TestContext, counts: { old: number; fresh: number }) {
  const { db } = ctx.database;
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  const event = (i: number, at: string) => ({ uuid: `retention-${at}-${i}`, type: 'lock.unlock', success: 1, created_at: at, received_at: at, payload: '{}' });
  await db.insertInto('kisi_events').values(range(counts.old).map((i) => event(i, daysAgo(401 + (i % 30))))).execute();
  if (counts.fresh > 0) await db.insertInto('kisi_events').values(range(counts.fresh).map((i) => event(i, daysAgo(i % 300)))).execute();

  const channel = (await db.selectFrom('chat_channels').select('id').where('name_key', '=', 'front desk').executeTakeFirstOrThrow()).id;
  const chat = (at: string) => ({ channel_id: channel, author_kind: 'staff' as const, author_name: 'Dana', body: 'hello', created_at: at });
  await db.insertInto('messages').values(range(counts.old).map((i) => chat(daysAgo(366 + i)))).execute();
  if (counts.fresh > 0) await db.insertInto('messages').values(range(counts.fresh).map((i) => chat(daysAgo(i)))).execute();

  for (const [age, n] of [[181, Math.ceil(counts.old / 3)], [5, 3]] as const) {
    for (const i of range(n)) {
      const at = daysAgo(age + i);
      const { id } = await db
        .insertInto('conversations')
        .values({ guest_name: 'Guest', guest_token_hash: `hash-${age}-${i}`, status: 'resolved', created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('messages').values(range(3).map(() => ({ conversation_id: id, author_kind: 'guest' as const, author_name: 'Guest', body: 'help', created_at: at }))).execute();
    }
  }

  // Files: old ones with bytes of their own, one old one sharing its bytes with a fresh one.
  const upload = (sha256: string, at: string) => ({ name: `${sha256}.txt`, type: 'text/plain', size: 5, sha256, uploaded_by: 'Dana', created_at: at });
  const blob = (sha256: string) => {
    fs.mkdirSync(path.dirname(blobPath(ctx.config.UPLOADS_DIR, sha256)), { recursive: true });
    fs.writeFileSync(blobPath(ctx.config.UPLOADS_DIR, sha256), 'bytes');
  };
  const oldFiles = range(Math.ceil(counts.old / 4)).map((i) => `old${String(i).padStart(4, '0')}`);
  for (const sha of [...oldFiles, 'shared', 'fresh']) blob(sha);
  await db.insertInto('uploads').values([...oldFiles.map((sha, i) => upload(sha, daysAgo(366 + i))), upload('shared', daysAgo(400)), upload('shared', daysAgo(3)), upload('fresh', daysAgo(1))]).execute();

  const entry = (at: string) => ({ at, kind: 'member' as const, action: 'created', subject: 'someone', changes: '[]' });
  await db.insertInto('audit_entries').values(range(counts.old).map((i) => entry(daysAgo(731 + i)))).execute();
  if (counts.fresh > 0) await db.insertInto('audit_entries').values(range(counts.fresh).map((i) => entry(daysAgo(i)))).execute();

  const stall = (await db.insertInto('stalls').values({ name: 'Old stall', status: 'open', created_at: daysAgo(900), updated_at: daysAgo(900) }).returning('id').executeTakeFirstOrThrow()).id;
  const orders = [
    ...range(counts.old).map((i) => ({ status: i % 5 === 0 ? ('cancelled' as const) : ('served' as const), at: daysAgo(731 + i) })),
    // Open for two years: still on a board, never purged.
    ...range(2).map(() => ({ status: 'received' as const, at: daysAgo(800) })),
    ...range(3).map((i) => ({ status: 'served' as const, at: daysAgo(i) })),
  ];
  for (const [i, order] of orders.entries()) {
    const { id } = await db
      .insertInto('orders')
      .values({ table_number: 1, status: order.status, total_cents: 500, token: `token-${i}`, request_hash: `hash-${i}`, created_at: order.at, updated_at: order.at })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('order_lines').values({ order_id: id, stall_id: stall, stall_name: 'Old stall', name: 'Soup', unit_price_cents: 500, quantity: 1 }).execute();
    await db.insertInto('order_tickets').values({ order_id: id, stall_id: stall, stall_name: 'Old stall', status: 'ready', received_at: order.at }).execute();
  }

  await db.insertInto('live_events').values(range(counts.old).map((i) => ({ type: 'order' as const, data: '{}', created_at: daysAgo(8 + i / 100) }))).execute();
  return { oldFiles, channel, stall };
}

const count = async (ctx: TestContext, table: 'kisi_events' | 'messages' | 'conversations' | 'uploads' | 'audit_entries' | 'orders' | 'order_lines' | 'order_tickets' | 'live_events') =>
  Number((await ctx.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

describe('retention', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ MESSAGES_PER_MINUTE: '100000' });
  });
  afterAll(() => ctx.close());

  it('purges what is past each kind’s time in small batches while the app answers writes, and tells admins what went', async () => {
    const { oldFiles, channel } = await seedHistory(ctx, { old: 120, fresh: 20 });
    const staff = await ctx.loginAs('staff');
    const admin = await ctx.loginAs('admin');
    const before = { chat: Number((await ctx.database.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('channel_id', 'is not', null).executeTakeFirstOrThrow()).n) };

    const batches: Array<{ kind: RetentionKind; batch: PurgedBatch; at: number }> = [];
    const retention = retentionServiceOn({ config: ctx.config, database: ctx.database, logger }, { batchSize: 25, pauseMs: 5, onBatch: (kind, batch) => void batches.push({ kind, batch, at: performance.now() }) });

    // Writes keep coming the whole time: chat messages into the table the purge deletes from, and gym owners.
    let purging = true;
    const writes: Array<{ status: number; at: number }> = [];
    const writer = (async () => {
      for (let i = 0; purging; i++) {
        const res =
          i % 2 === 0
            ? await staff.post(`/api/chat/channels/${channel}/messages`).send({ body: `during the purge ${i}` })
            : await staff.post('/api/gym/owners').send({ name: `Owner ${i}`, email: `owner${i}@purge.test`, gymName: 'Purge Gym' });
        writes.push({ status: res.status, at: performance.now() });
      }
    })();
    const outcome = await retention.run();
    purging = false;
    await writer;

    expect(outcome.status).toBe('ok');
    expect(outcome.kinds).toMatchObject({
      doorEvents: { purged: 120 },
      chat: { purged: 120 },
      conversations: { purged: 40 },
      files: { purged: oldFiles.length + 1 },
      audit: { purged: 120 },
      orders: { purged: 120 },
      // Past its week; the writes meanwhile sent newer ones.
      liveEvents: { purged: 120 },
    });
    // A batch at a time: no statement deleted more than 25 rows, and each kind took several.
    expect(Math.max(...batches.map((b) => b.batch.purged))).toBeLessThanOrEqual(25);
    expect(batches.filter((b) => b.kind === 'doorEvents').length).toBeGreaterThanOrEqual(5);
    // Every write was answered, and writes were answered between the purge's first and last batch.
    expect(writes.length).toBeGreaterThan(0);
    expect(writes.every((w) => w.status === 201)).toBe(true);
    const first = batches[0]!.at;
    const last = batches.at(-1)!.at;
    expect(writes.filter((w) => w.at > first && w.at < last).length).toBeGreaterThan(0);

    // The fresh rows stay, the old ones are gone.
    expect(await count(ctx, 'kisi_events')).toBe(20);
    const chatNow = Number((await ctx.database.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('channel_id', 'is not', null).executeTakeFirstOrThrow()).n);
    expect(chatNow).toBe(before.chat - 120 + writes.filter((_, i) => i % 2 === 0).length);
    expect(await count(ctx, 'conversations')).toBe(3);
    expect(Number((await ctx.database.db.selectFrom('messages').select((eb) => eb.fn.countAll<number>().as('n')).where('conversation_id', 'is not', null).executeTakeFirstOrThrow()).n)).toBe(9);
    expect(await count(ctx, 'audit_entries')).toBeGreaterThanOrEqual(20);
    expect(await count(ctx, 'orders')).toBe(5);
    // An order's lines and tickets went with it.
    expect(await count(ctx, 'order_lines')).toBe(5);
    expect(await count(ctx, 'order_tickets')).toBe(5);
    expect(await count(ctx, 'live_events')).toBeGreaterThanOrEqual(1);
    // Files: the old bytes are gone; bytes a fresh file still holds stay.
    expect(oldFiles.filter((sha) => fs.existsSync(blobPath(ctx.config.UPLOADS_DIR, sha)))).toEqual([]);
    expect(fs.existsSync(blobPath(ctx.config.UPLOADS_DIR, 'shared'))).toBe(true);
    expect(fs.existsSync(blobPath(ctx.config.UPLOADS_DIR, 'fresh'))).toBe(true);
    expect(await count(ctx, 'uploads')).toBe(2);

    // Admins read the run: per kind its days, cut-off and count.
    const report = (await admin.get('/api/operations/retention').expect(200)).body as RetentionReport;
    expect(report.lastRun).toMatchObject({ status: 'ok', error: null });
    const doors = report.kinds.find((k) => k.kind === 'doorEvents')!;
    expect(doors).toMatchObject({ days: 400, purged: 120 });
    expect(Math.abs(Date.parse(doors.cutoff!) - (Date.now() - 400 * DAY_MS))).toBeLessThan(60_000);
    expect(report.kinds.map((k) => k.kind)).toEqual(['doorEvents', 'chat', 'conversations', 'files', 'audit', 'orders', 'liveEvents']);
    await staff.get('/api/operations/retention').expect(403);

    // A second run finds nothing more to purge.
    const again = await retention.run();
    expect(Object.values(again.kinds).map((k) => k.purged)).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});

describe('retention runs', () => {
  it('runs once a day across instances: of two polling at once one takes the run, and the next is due a day later', () =>
    withTestContext({}, async (ctx) => {
      const instances = [0, 1].map(() => retentionServiceOn({ config: ctx.config, database: ctx.database, logger }));
      const stop = new AbortController().signal;
      const runs = await Promise.all(instances.map((r) => r.runIfDue(stop)));
      expect(runs.filter((r) => r !== undefined)).toHaveLength(1);
      expect(await instances[0]!.runIfDue(stop)).toBeUndefined();
      const report = await instances[1]!.report();
      expect(Math.abs(Date.parse(report.nextRunAt!) - (Date.now() + DAY_MS))).toBeLessThan(60_000);
      expect(report.lastRun?.status).toBe('ok');
    }));

  it('takes a door and a person whose events are all purged out of the inbox\'s choices and its person filter, and keeps the rest', () =>
    withTestContext({}, async (ctx) => {
      // Stored and counted as the webhook's store does (migration 031's tables).
      const store = async (i: number, door: number, name: string, at: string) => {
        const row = { uuid: `purged-door-${i}`, type: i === 0 ? 'lock.forced_open' : 'lock.unlock', actor_name: name, actor_email: null, object_type: 'Lock', object_id: door, success: 1, created_at: at, received_at: at, payload: '{}' };
        await ctx.database.db.insertInto('kisi_events').values(row).execute();
        await countEvents(ctx.database.db, [row], 1);
      };
      for (let i = 0; i < 3; i++) await store(i, 77, 'Olga Oldtimer', daysAgo(400 + i));
      await store(3, 78, 'Fresh Face', daysAgo(1));
      await store(4, 77, 'Fresh Face', daysAgo(2));
      const staff = await ctx.loginAs('staff');
      const choices = async () => (await staff.get('/api/webhook/filters').expect(200)).body as { doors: { id: number }[]; types: string[] };
      expect((await choices()).types).toContain('lock.forced_open');
      expect((await staff.get('/api/webhook?person=oldtimer').expect(200)).body.total).toBe(3);

      await retentionServiceOn({ config: ctx.config, database: ctx.database, logger }, { batchSize: 2 }).run();
      expect((await staff.get('/api/webhook?person=oldtimer').expect(200)).body.total).toBe(0);
      expect(await ctx.database.db.selectFrom('kisi_event_people').select('name').where('name', '=', 'Olga Oldtimer').execute()).toEqual([]);
      expect((await choices()).types).not.toContain('lock.forced_open');
      expect((await choices()).doors.map((d) => d.id).filter((id) => id >= 77)).toEqual([77, 78]);
      expect((await staff.get('/api/webhook?person=fresh').expect(200)).body.total).toBe(2);
    }));

  it('keeps a kind set to 0 days for ever, and says so', () =>
    withTestContext({ env: { RETAIN_AUDIT_DAYS: '0', RETAIN_DOOR_EVENTS_DAYS: '0' } }, async (ctx) => {
      await seedHistory(ctx, { old: 10, fresh: 2 });
      const retention = retentionServiceOn({ config: ctx.config, database: ctx.database, logger });
      const outcome = await retention.run();
      expect(outcome.kinds.audit).toBeUndefined();
      expect(await count(ctx, 'audit_entries')).toBe(12);
      expect(await count(ctx, 'kisi_events')).toBe(12);
      expect(await count(ctx, 'orders')).toBe(5);
      // Every live event was past its week, but the newest stays: a starting instance reads where the log ends from it.
      expect(outcome.kinds.liveEvents).toMatchObject({ purged: 9 });
      expect(await count(ctx, 'live_events')).toBe(1);
      const report = await retention.report();
      expect(report.kinds.find((k) => k.kind === 'audit')).toEqual({ kind: 'audit', days: 0, cutoff: null, purged: 0 });
    }));

  it('stops at the next batch when the server stops, keeps what it purged, and is due again at once', () =>
    withTestContext({}, async (ctx) => {
      await seedHistory(ctx, { old: 60, fresh: 0 });
      const stopper = new AbortController();
      const retention = retentionServiceOn({ config: ctx.config, database: ctx.database, logger }, { batchSize: 10, pauseMs: 0, onBatch: (kind) => void (kind === 'doorEvents' && stopper.abort()) });
      const outcome = await retention.runIfDue(stopper.signal);
      expect(outcome).toMatchObject({ status: 'failed', error: 'the server is stopping' });
      expect(await count(ctx, 'kisi_events')).toBe(50);
      const report = await retention.report();
      expect(Date.parse(report.nextRunAt!)).toBeLessThanOrEqual(Date.now());
      expect(report.lastRun?.status).toBe('failed');
      // The next poll takes it and finishes the job.
      expect((await retention.runIfDue(new AbortController().signal))?.status).toBe('ok');
      expect(await count(ctx, 'kisi_events')).toBe(0);
    }));
});
