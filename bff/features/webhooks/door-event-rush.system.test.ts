import crypto from 'node:crypto';
import request from 'supertest';
import { createApp } from '../../app';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { sharedRateWindow } from '../../db/shared-limits';
import { createKisi } from '../../kisi/kisi';
import { KISI_RATE_LIMIT_PER_SECOND, KISI_RATE_MARGIN_MS, KISI_RATE_WINDOW_MS } from '../../kisi/rate-limiter';
import { signBody } from '../../kisi/signature';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * A rush of door events, faster than Kisi's 5 requests/s: signed `lock.unlock` webhooks as Kisi
 * sends them (the actor's user id, no email) at about 40/s for 10 s, spread over two app instances
 * on one database (each with its own Kisi client, sharing the database's rate window as instances
 * do), against the emulator, which refuses more than 5 requests/s as Kisi does. Every event must be
 * stored once, with its member's email, and be on that member's unlocks.
 */
jest.setTimeout(40_000);

const RATE = 40;
const SECONDS = 10;

let ctx: TestContext;
let second: ReturnType<typeof createApp>;
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true, kisiRatePerSecond: KISI_RATE_LIMIT_PER_SECOND });
  const kisi = createKisi(ctx.kisi!.settings, {
    ratePerSecond: KISI_RATE_LIMIT_PER_SECOND,
    reserve: sharedRateWindow(ctx.database, 'kisi', KISI_RATE_LIMIT_PER_SECOND, KISI_RATE_WINDOW_MS + KISI_RATE_MARGIN_MS),
  });
  second = createApp({ config: ctx.config, database: ctx.database, logger: (await import('../../lib/logger')).createLogger('silent'), version: '0.0.0-test', door: kisi.door, kisi });
});
afterAll(async () => {
  await Promise.all(second?.jobs.map((job) => job.stop()) ?? []);
  second?.endStreams();
  await ctx.close();
});

it('stores every unlock of a 40/s rush once, with the member’s email, on their unlocks, across two instances', async () => {
  const { users } = await ctx.kisi!.client.listUsers({ offset: 0, limit: 20 });
  const members = users.filter((u) => u.email).slice(0, 12);
  expect(members.length).toBeGreaterThanOrEqual(8);
  const secret = ctx.kisi!.settings.webhookSecret!;
  const apps = [ctx.app, second.app];
  const sent: Array<{ uuid: string; email: string }> = [];
  const answers: Array<Promise<number>> = [];
  const started = Date.now();
  for (let n = 0; n < RATE * SECONDS; n++) {
    // On schedule: the nth webhook leaves at n / 40 s.
    const due = started + (n * 1000) / RATE;
    if (due > Date.now()) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
    const member = members[n % members.length]!;
    const uuid = crypto.randomUUID();
    const body = JSON.stringify({
      uuid,
      type: 'lock.unlock',
      actor_type: 'User',
      actor_id: member.id,
      actor_name: member.name,
      object_type: 'Lock',
      object_id: 1,
      object_name: 'Main Entrance',
      success: true,
      created_at: new Date().toISOString(),
    });
    sent.push({ uuid, email: member.email.toLowerCase() });
    answers.push(
      request(apps[n % 2]!)
        .post('/api/webhooks/kisi')
        .set('Content-Type', 'application/json')
        .set('X-Signature', signBody(body, secret))
        .send(body)
        .then((res) => res.status),
    );
  }
  // Every delivery is taken (Kisi retries what is not): none waited out Kisi's pace.
  expect(new Set(await Promise.all(answers))).toEqual(new Set([200]));

  // The emails left for later are filled in within a few seconds of the rush.
  const deadline = Date.now() + 15_000;
  let rows = await ctx.database.db.selectFrom('kisi_events').select(['uuid', 'actor_email']).where('uuid', 'in', sent.map((s) => s.uuid)).execute();
  while (rows.some((r) => r.actor_email === null) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    rows = await ctx.database.db.selectFrom('kisi_events').select(['uuid', 'actor_email']).where('uuid', 'in', sent.map((s) => s.uuid)).execute();
  }
  expect(rows).toHaveLength(sent.length);
  const emailOf = new Map(rows.map((r) => [r.uuid, r.actor_email]));
  expect(sent.filter((s) => emailOf.get(s.uuid) !== s.email)).toEqual([]);

  // And each member's unlocks list them all.
  const staff = await ctx.loginAs('staff');
  for (const member of members) {
    const email = member.email.toLowerCase();
    const theirs = sent.filter((s) => s.email === email).map((s) => s.uuid);
    const page = (await staff.get('/api/webhooks/unlocks').query({ email, pageSize: 100 }).expect(200)).body as { items: KisiEvent[]; total: number };
    expect(page.total).toBeGreaterThanOrEqual(theirs.length);
    const listed = new Set(page.items.map((e) => e.uuid));
    expect(theirs.filter((uuid) => !listed.has(uuid))).toEqual([]);
  }
});
