import { recordVisitIn } from '../../db/member-visits';
import { createLogger } from '../../lib/logger';
import { daysAgo } from '../../test-support/clock';
import { createTestContext, type TestContext } from '../../test-support/test-app';
import { retentionServiceOn } from './retention.feature';

/**
 * A member's visits (their attendance's quarter hours, migration 036, decision 0104) are kept as long
 * as the door events they come from: the daily run removes those older than the door events' cut-off,
 * a batch at a time, and keeps the newer ones. On this run's engine.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

it('purges members’ visits past the door events’ cut-off, and keeps the newer ones', async () => {
  const { db } = ctx.database;
  const owner = await db.insertInto('gym_owners').values({ name: 'Owner', email: 'owner@retained.test', gym_name: 'Gym', created_at: daysAgo(900) }).returning('id').executeTakeFirstOrThrow();
  const member = await db
    .insertInto('gym_users')
    .values({ email: 'old@retained.test', name: 'Old Timer', owner_id: owner.id, membership: 'active', created_at: daysAgo(900), updated_at: daysAgo(900) })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const days of [800, 700, 401, 399, 3]) await recordVisitIn(db)({ type: 'lock.unlock', success: true, actorEmail: 'old@retained.test', createdAt: daysAgo(days) });

  const outcome = await retentionServiceOn({ config: ctx.config, database: ctx.database, logger: createLogger('silent') }, { batchSize: 2, pauseMs: 0 }).run();

  expect(outcome.status).toBe('ok');
  const left = await db.selectFrom('member_visits').select('at').where('member_id', '=', member.id).orderBy('at').execute();
  expect(left).toHaveLength(2);
  expect(left.every((v) => v.at > daysAgo(400))).toBe(true);
  // The last visit on the member's row stays: it is theirs, not the door log's.
  expect((await db.selectFrom('gym_users').select('last_visit_at').where('id', '=', member.id).executeTakeFirstOrThrow()).last_visit_at).not.toBeNull();
});
