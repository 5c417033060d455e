import { createLogger } from '../../lib/logger';
import { daysAgo } from '../../test-support/clock';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { retentionServiceOn } from './retention.feature';

/**
 * Who pressed a remote unlock (a staff member's name and email, migration 035) is kept as long as the
 * door events: retention removes the requests older than the door events' cut-off, those that matched
 * no event by their own age and those that did with their event; newer ones stay. On this run's engine.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

it('purges remote unlock requests past the door events’ cut-off, matched or not, and keeps the newer ones', async () => {
  const { db } = ctx.database;
  const event = async (at: string, uuid: string) =>
    (await db.insertInto('kisi_events').values({ uuid, type: 'lock.unlock', actor_id: 9, object_type: 'Lock', object_id: 3, success: 1, created_at: at, received_at: at, payload: '{}' }).returning('id').executeTakeFirstOrThrow()).id;
  const request = (at: string, name: string, eventId: number | null) => ({
    lock_id: 3,
    kisi_user_id: 9,
    account_id: null,
    requested_by_name: name,
    requested_by_email: `${name.toLowerCase()}@frontdesk.test`,
    requested_at: at,
    status: 'accepted' as const,
    event_id: eventId,
  });
  await db
    .insertInto('remote_unlock_requests')
    .values([
      request(daysAgo(500), 'Unmatched', null),
      request(daysAgo(450), 'Matched', await event(daysAgo(450), 'old-remote-unlock')),
      request(daysAgo(2), 'Recent', await event(daysAgo(2), 'new-remote-unlock')),
      request(daysAgo(1), 'Pending', null),
    ])
    .execute();

  const outcome = await retentionServiceOn({ config: ctx.config, database: ctx.database, logger: createLogger('silent') }, { batchSize: 1, pauseMs: 0 }).run();

  expect(outcome.status).toBe('ok');
  expect(outcome.kinds.doorEvents?.purged).toBe(1);
  const left = await db.selectFrom('remote_unlock_requests').select('requested_by_name').orderBy('requested_at').execute();
  expect(left.map((r) => r.requested_by_name)).toEqual(['Recent', 'Pending']);
});
