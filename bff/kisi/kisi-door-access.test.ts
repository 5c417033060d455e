import { kisiDoorAccess } from './kisi-door-access';
import type { KisiUserSummary } from './kisi-client';

/** A Kisi with `count` users, counting the requests it gets. */
function fakeKisi(count: number) {
  const users: KisiUserSummary[] = Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `User ${i + 1}`, email: `user${i + 1}@kisi.test`, accessEnabled: true }));
  const calls: string[] = [];
  let down = false;
  return {
    users,
    calls,
    takeDown: () => (down = true),
    client: {
      listUsers: async ({ offset, limit }: { offset: number; limit: number }) => {
        if (down) throw new Error('Kisi is unreachable');
        calls.push(`list ${offset}`);
        return { users: users.slice(offset, offset + limit), total: users.length };
      },
      findUserByEmail: async (email: string) => {
        if (down) throw new Error('Kisi is unreachable');
        calls.push(`find ${email}`);
        return users.find((u) => u.email === email) ?? null;
      },
      setAccess: async (id: number, enabled: boolean) => {
        users.find((u) => u.id === id)!.accessEnabled = enabled;
      },
    },
  };
}

describe('kisiDoorAccess.findUsers', () => {
  it('reads a page of members from Kisi’s directory in one request, not one per member, and reuses it', async () => {
    const kisi = fakeKisi(40);
    const door = kisiDoorAccess(kisi.client);
    const found = await door.findUsers(['user1@kisi.test', 'USER2@kisi.test', 'nobody@kisi.test']);
    expect(found.get('user2@kisi.test')).toMatchObject({ id: 2 });
    expect(found.get('nobody@kisi.test')).toBeNull();
    await door.findUsers(['user3@kisi.test', 'nobody@kisi.test']);
    expect(kisi.calls).toEqual(['list 0']);
  });

  it('asks again once the memory is older than its limit, and shows a switch or a live read at once', async () => {
    const kisi = fakeKisi(3);
    let now = Date.parse('2026-11-20T09:00:00Z'); // the memory's clock, moved by the test
    const door = kisiDoorAccess(kisi.client, { maxAgeMs: 30_000, now: () => now });
    await door.findUsers(['user1@kisi.test', 'user2@kisi.test']);
    await door.setAccess(1, false);
    expect((await door.findUsers(['user1@kisi.test', 'user2@kisi.test'])).get('user1@kisi.test')?.accessEnabled).toBe(false);
    kisi.users[1]!.accessEnabled = false; // changed in Kisi's dashboard
    await door.findUser('user2@kisi.test');
    expect((await door.findUsers(['user1@kisi.test', 'user2@kisi.test'])).get('user2@kisi.test')?.accessEnabled).toBe(false);
    now += 30_000; // as old as the limit: still used
    await door.findUsers(['user1@kisi.test', 'user2@kisi.test']);
    expect(kisi.calls.filter((c) => c.startsWith('list'))).toHaveLength(1);
    now += 1; // older than it: read again
    await door.findUsers(['user1@kisi.test', 'user2@kisi.test']);
    expect(kisi.calls.filter((c) => c.startsWith('list'))).toHaveLength(2);
  });

  it('reads a large directory only so far, then asks for the members it did not reach one by one', async () => {
    const kisi = fakeKisi(650);
    const door = kisiDoorAccess(kisi.client);
    const found = await door.findUsers(['user1@kisi.test', 'user640@kisi.test', 'nobody@kisi.test']);
    expect(found.get('user640@kisi.test')).toMatchObject({ id: 640 });
    expect(found.get('nobody@kisi.test')).toBeNull();
    expect(kisi.calls).toEqual(['list 0', 'list 100', 'list 200', 'list 300', 'list 400', 'find user640@kisi.test', 'find nobody@kisi.test']);
  });

  it('fails when Kisi cannot be reached (the list decides what to show)', async () => {
    const kisi = fakeKisi(3);
    kisi.takeDown();
    await expect(kisiDoorAccess(kisi.client).findUsers(['user1@kisi.test', 'user2@kisi.test'])).rejects.toThrow('unreachable');
  });
});
