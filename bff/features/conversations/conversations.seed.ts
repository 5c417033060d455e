import crypto from 'node:crypto';
import { fillConversationSearch } from '../../db/migrations/032-staff-messages-trail-files.migration';
import type { Seeder } from '../../db/seed';

/** Two help requests from the floor: one waiting for an answer, one answered and resolved. */
export const conversationsSeeder: Seeder = {
  name: 'conversations',
  async run(db) {
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    // Nobody holds these devices' tokens: the demo conversations are for the front desk to read.
    const unheldToken = () => crypto.createHash('sha256').update(crypto.randomBytes(24)).digest('hex');
    const admin = await db.selectFrom('accounts').select(['id', 'name']).where('role', '=', 'admin').orderBy('id').executeTakeFirst();

    const waiting = await db
      .insertInto('conversations')
      .values({ guest_name: 'Priya', guest_table: 12, guest_email: null, guest_token_hash: unheldToken(), status: 'open', created_at: at(14), updated_at: at(9) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('messages')
      .values([
        { conversation_id: waiting.id, author_kind: 'guest', author_name: 'Priya', body: 'Hi, could we get two high chairs at table 12?', created_at: at(14) },
        { conversation_id: waiting.id, author_kind: 'guest', author_name: 'Priya', body: 'Also, is the laksa very spicy?', created_at: at(9) },
      ])
      .execute();
    await fillConversationSearch(db, [waiting.id]);

    if (!admin) return;
    const answered = await db
      .insertInto('conversations')
      .values({ guest_name: 'Marco Rossi', guest_table: null, guest_email: 'marco@example.com', guest_token_hash: unheldToken(), status: 'resolved', assignee_id: admin.id, created_at: at(300), updated_at: at(280) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('messages')
      .values([
        { conversation_id: answered.id, author_kind: 'guest', author_name: 'Marco Rossi', body: 'My member card does not open the gym door since this morning.', created_at: at(300) },
        { conversation_id: answered.id, author_kind: 'staff', author_account_id: admin.id, author_name: admin.name, body: 'Sorry about that! Your access was paused by mistake; it works again now.', created_at: at(285) },
        { conversation_id: answered.id, author_kind: 'guest', author_name: 'Marco Rossi', body: 'It works, thank you!', created_at: at(280) },
      ])
      .execute();
    await fillConversationSearch(db, [answered.id]);
  },
};
