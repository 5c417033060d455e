import type { Seeder } from '../../db/seed';

/** A morning's worth of chat in the channels the migration opened, written by the first admin. */
const LINES: Array<[channel: string, minutesAgo: number, body: string]> = [
  ['Front desk', 95, 'Morning all. The side door on Level 2 is sticking again; I have logged it with facilities.'],
  ['Front desk', 80, 'Parcel for the yoga studio is behind the desk, please hand it over when they arrive.'],
  ['Kitchen', 60, 'Nonna Lucia is out of lasagne until 12:30. It is marked sold out on the menu.'],
  ['Kitchen', 20, 'Runners: table 12 asked for high chairs, two of them. Thanks!'],
  ['Managers', 45, 'Rota for next week is on the shared drive: https://example.com/rota'],
];

export const chatSeeder: Seeder = {
  name: 'chat',
  async run(db) {
    const admin = await db.selectFrom('accounts').select(['id', 'name']).where('role', '=', 'admin').orderBy('id').executeTakeFirst();
    if (!admin) return;
    const channels = await db.selectFrom('chat_channels').select(['id', 'name']).execute();
    const idOf = new Map(channels.map((c) => [c.name, c.id]));
    const rows = LINES.filter(([channel]) => idOf.has(channel)).map(([channel, minutesAgo, body]) => ({
      channel_id: idOf.get(channel)!,
      author_kind: 'staff' as const,
      author_account_id: admin.id,
      author_name: admin.name,
      body,
      created_at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    }));
    if (rows.length > 0) await db.insertInto('messages').values(rows).execute();
  },
};
