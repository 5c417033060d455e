import crypto from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { LiveEvent } from '../../contracts/events.contract';
import type { KisiEvent } from '../../contracts/webhook.contract';
import { createLogger } from '../../lib/logger';
import { fakeTimersBesideIo } from '../../test-support/clock';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { INLINE_LOOKUP_WAIT_MS, kisiActorEmails, type KisiActorEmailsDeps } from './kisi-actor-emails';
import { kisiEventWrites, receiveKisiEvent } from './kisi-event.receive';
import { kisiEventsCatchUp } from './kisi-events.catch-up';
import { kisiEventsRepository } from './kisi-events.repository';

/**
 * A door event whose actor's email could not be looked up when it arrived (Kisi's 5 requests/s were
 * taken) is stored at once without it, and the email is filled in after: one lookup per Kisi user,
 * every event of theirs filled, each announced again with the email.
 */
let ctx: TestContext;
const published: LiveEvent[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  ctx.bus.subscribe((event) => published.push(event));
});
afterAll(() => ctx.close());

const events = () => kisiEventsRepository(ctx.database.db);
const unlockBy = (actorId: number, actorType: string | null = 'User') => {
  const body = { uuid: crypto.randomUUID(), type: 'lock.unlock', actor_type: actorType, actor_id: actorId, actor_name: `Person ${actorId}`, object_type: 'Lock', object_id: 1, success: true, created_at: new Date().toISOString() };
  return { body, raw: Buffer.from(JSON.stringify(body)) };
};
const emailsOf = async (uuids: string[]) =>
  new Map((await ctx.database.db.selectFrom('kisi_events').select(['uuid', 'actor_email']).where('uuid', 'in', uuids).execute()).map((r) => [r.uuid, r.actor_email]));

function resolverWith(directory: Record<number, string | null>, overrides: Partial<KisiActorEmailsDeps> = {}) {
  const asked: number[] = [];
  let busy = true; // Kisi's limit is taken: a webhook cannot look anyone up now
  /** Each lookup that waits for a slot says so here, with the signal that gives up its wait. */
  const waiting = new EventEmitter();
  const resolver = kisiActorEmails({
    events: events(),
    lookup: async (id, stop) => {
      if (busy && stop && !stop.aborted) {
        const givenUp = new Promise((_resolve, reject) => stop.addEventListener('abort', () => reject(new Error('given up')), { once: true }));
        waiting.emit('lookup', stop);
        await givenUp;
      }
      asked.push(id);
      return directory[id] ?? null;
    },
    inTransaction: kisiEventWrites(ctx.bus),
    logger: createLogger('silent'),
    ...overrides,
  });
  return { resolver, asked, waiting, free: () => void (busy = false) };
}

it('stores an event at once when its actor cannot be looked up now, then fills in the email with one lookup per person and announces it again', async () => {
  const { resolver, asked, waiting, free } = resolverWith({ 901: 'Ada@Members.example', 902: 'bo@members.example' });
  const deps = { events: events(), inTransaction: kisiEventWrites(ctx.bus), emailOfKisiUser: resolver.emailNow, onEmailMissing: () => undefined };
  const sent = [unlockBy(901), unlockBy(901), unlockBy(902), unlockBy(903)];
  // Each waits INLINE_LOOKUP_WAIT_MS for a slot, on a clock the test moves, then is stored without the email.
  fakeTimersBesideIo();
  try {
    for (const { body, raw } of sent) {
      const lookupWaits = once(waiting, 'lookup') as Promise<[AbortSignal]>;
      const receiving = receiveKisiEvent(deps, body, raw, new Date().toISOString());
      const [stop] = await lookupWaits;
      await jest.advanceTimersByTimeAsync(INLINE_LOOKUP_WAIT_MS - 1);
      expect(stop.aborted).toBe(false);
      // Given up at its second, not at Kisi's timeout.
      await jest.advanceTimersByTimeAsync(1);
      expect(stop.aborted).toBe(true);
      expect(await receiving).toMatchObject({ status: 'stored' });
    }
  } finally {
    jest.useRealTimers();
  }
  expect([...(await emailsOf(sent.map((s) => s.body.uuid))).values()]).toEqual([null, null, null, null]);

  free();
  await ctx.bus.idle();
  published.length = 0;
  resolver.wake();
  await resolver.settled();
  await ctx.bus.idle();
  const emails = await emailsOf(sent.map((s) => s.body.uuid));
  expect(sent.map((s) => emails.get(s.body.uuid))).toEqual(['ada@members.example', 'ada@members.example', 'bo@members.example', null]);
  // One lookup per person; 903 has no email at Kisi and is not asked about again.
  expect(asked.filter((id) => id === 901)).toHaveLength(1);
  resolver.wake();
  await resolver.settled();
  expect(asked.filter((id) => id === 903)).toHaveLength(1);
  // The inbox and the member's unlocks hear each filled event again, with its email.
  const announced = published.filter((e) => e.type === 'webhook').map((e) => e.data as KisiEvent);
  expect(announced.map((e) => [e.uuid, e.actorEmail])).toEqual(sent.slice(0, 3).map((s) => [s.body.uuid, emails.get(s.body.uuid)]));
  // Known now: the next webhook of the same person has the email at once.
  const again = unlockBy(902);
  const stored = await receiveKisiEvent(deps, again.body, again.raw, new Date().toISOString());
  expect(stored).toMatchObject({ status: 'stored', event: { actorEmail: 'bo@members.example' } });
  await resolver.stop();
});

it('the catch-up fills in the emails of events already stored without one, from the emails Kisi’s log names', async () => {
  const { resolver, asked, free } = resolverWith({});
  free();
  const waiting = unlockBy(911);
  await receiveKisiEvent({ events: events(), inTransaction: kisiEventWrites(ctx.bus) }, waiting.body, waiting.raw, new Date().toISOString());
  // Kisi's log has the same event, with the email its webhook left out.
  const logged = { ...waiting.body, actor_email: 'cy@members.example' };
  const catchUp = kisiEventsCatchUp({
    events: events(),
    readLog: async () => ({ events: [logged], total: 1 }),
    emailOfKisiUser: resolver.emailNow,
    onEmailMissing: resolver.wake,
    actorEmailSeen: resolver.learn,
    inTransaction: kisiEventWrites(ctx.bus),
    logger: createLogger('silent'),
  });
  expect(await catchUp.run()).toMatchObject({ status: 'done', stored: 0 });
  await resolver.settled();
  expect((await emailsOf([waiting.body.uuid])).get(waiting.body.uuid)).toBe('cy@members.example');
  expect(asked).not.toContain(911); // no lookup of its own
  await catchUp.stop();
  await resolver.stop();
});
