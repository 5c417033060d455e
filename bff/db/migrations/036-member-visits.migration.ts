import { sql, type Kysely } from 'kysely';

/**
 * A member's attendance (issue 52, decision 0104): `member_visits` holds one row per member and
 * quarter hour (UTC) in which a door let them in, however many doors they opened in it. The day a
 * visit counts to is the venue's (`VENUE_TIME_ZONE`), worked out when it is read: every zone's offset
 * is a whole number of quarter hours, so a quarter hour lies within one venue day whatever the zone
 * is now, and a change of zone counts the same rows again without a recount. A member's attendance
 * reads at most 12 weeks of their rows off the primary key (member, at); the list's column a page of
 * members' last 4 weeks. The rows go with the member (`cascade`, so an erasure takes them), and with
 * the door events' retention (`member_visits_at_idx`, the purge's order).
 *
 * The two door-state indexes serve the member list's filter by door state (the state recorded of
 * their last Kisi switch, as `doorStateColumn` in members.repository.ts spells it, character for
 * character: an expression index is used only for the same expression) in both of its orders.
 *
 * Filled from the successful unlocks already stored, by frozen SQL: a quarter hour is the event's
 * ISO time with its minutes brought down to 00, 15, 30 or 45.
 */
const DOOR_STATE = sql.raw(`(case when access_sync_state = 'no_kisi_user' then 'no_account'
 when access_sync_state = 'failed' then 'failed'
 when access_sync_state = 'pending' then 'waiting'
 when kisi_access_enabled = 1 then 'open'
 when kisi_access_enabled = 0 then 'closed'
 else 'unconfirmed' end)`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('member_visits')
    .addColumn('member_id', 'integer', (c) => c.notNull().references('gym_users.id').onDelete('cascade'))
    .addColumn('at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('member_visits_pk', ['member_id', 'at'])
    .execute();
  await db.schema.createIndex('member_visits_at_idx').on('member_visits').column('at').execute();
  await sql`insert into member_visits (member_id, at)
    select distinct u.id, substr(e.created_at, 1, 14) || case
        when substr(e.created_at, 15, 2) < '15' then '00'
        when substr(e.created_at, 15, 2) < '30' then '15'
        when substr(e.created_at, 15, 2) < '45' then '30'
        else '45' end || ':00.000Z'
    from kisi_events e join gym_users u on u.email = e.actor_email
    where e.type = 'lock.unlock' and e.success = 1`.execute(db);
  await sql`create index gym_users_door_name_idx on gym_users (${DOOR_STATE}, name, id)`.execute(db);
  await sql`create index gym_users_door_visit_idx on gym_users (${DOOR_STATE}, last_visit_at, id)`.execute(db);
}
