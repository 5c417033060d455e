import { LRUCache } from 'lru-cache';
import { singleFlight } from '../lib/single-flight';
import type { KisiClient, KisiUserSummary } from './kisi-client';

/** How old a Kisi user the member list shows may be; the member's own door card always asks Kisi. */
export const KISI_USERS_MAX_AGE_MS = 30_000;
/** Kisi's largest page of users. */
const USERS_PAGE = 100;
/**
 * How much of Kisi's user directory one read may take (5 requests, a second of Kisi's 5 per
 * second). A larger organisation is read that far, and the members not in it are asked one by one.
 */
const DIRECTORY_PAGES = 5;
const MAX_CACHED_USERS = 10_000;

type Known = { user: KisiUserSummary | null };

/**
 * The gym's door-access provider (gym.service DoorAccess) backed by Kisi, with a short-lived memory
 * of Kisi users by email for lists. Kisi's GET /users filters by one email only (not a list of
 * them), so a page of members is read as Kisi's user directory, 100 users a request, instead of one
 * request per member; what was read is reused for `maxAgeMs`. A live read (the member's door card,
 * a switch) writes what it saw into the memory, so the list never shows an older state than the
 * card just did. Each BFF instance keeps its own memory; at worst a list is `maxAgeMs` behind a
 * change made in Kisi's own dashboard.
 */
export function kisiDoorAccess(
  client: Pick<KisiClient, 'findUserByEmail' | 'listUsers' | 'setAccess'>,
  { maxAgeMs = KISI_USERS_MAX_AGE_MS, now }: { maxAgeMs?: number; now?: () => number } = {},
) {
  // `now` (tests) is the clock the memory ages by; read at every look (the cache's 1 ms reuse of a reading is off then).
  const known = new LRUCache<string, Known>({ max: MAX_CACHED_USERS, ttl: maxAgeMs, ...(now ? { perf: { now }, ttlResolution: 0 } : {}) });
  const directoryRead = singleFlight<boolean>();
  const remember = (email: string, user: KisiUserSummary | null) => known.set(email.toLowerCase(), { user });

  /** Reads Kisi's users into memory; true when that was all of them. */
  async function readDirectory(): Promise<boolean> {
    for (let page = 0; page < DIRECTORY_PAGES; page++) {
      const { users, total } = await client.listUsers({ offset: page * USERS_PAGE, limit: USERS_PAGE });
      for (const user of users) remember(user.email, user);
      const read = page * USERS_PAGE + users.length;
      if (users.length < USERS_PAGE || (total !== undefined && read >= total)) return true;
    }
    return false;
  }

  async function findUser(email: string): Promise<KisiUserSummary | null> {
    const user = await client.findUserByEmail(email);
    remember(email, user);
    return user;
  }

  return {
    findUser,
    /** One cheap request (a page of one user): resolves when Kisi answers. */
    probe: async (): Promise<void> => {
      await client.listUsers({ offset: 0, limit: 1 });
    },

    /**
     * The Kisi user of each email (null: none has it), from memory when read within `maxAgeMs`.
     * Throws (a KisiError) when Kisi cannot be reached: the caller decides what a list shows then.
     */
    async findUsers(emails: readonly string[]): Promise<Map<string, KisiUserSummary | null>> {
      const wanted = [...new Set(emails.map((e) => e.toLowerCase()))];
      let missing = wanted.filter((email) => !known.has(email));
      if (missing.length > 1) {
        const whole = await directoryRead('directory', readDirectory);
        missing = missing.filter((email) => !known.has(email));
        // The whole directory was read: an email not in it has no Kisi account.
        if (whole) for (const email of missing.splice(0)) remember(email, null);
      }
      for (const email of missing) await findUser(email);
      return new Map(wanted.map((email) => [email, known.get(email)?.user ?? null]));
    },

    /** A Kisi user changed elsewhere (an admin's switch through the proxy): the next list asks Kisi again. */
    forgetUser(kisiUserId: number): void {
      for (const [email, entry] of [...known.entries()]) if (entry.user?.id === kisiUserId) known.delete(email);
    },

    async setAccess(kisiUserId: number, enabled: boolean): Promise<void> {
      await client.setAccess(kisiUserId, enabled);
      // The switch is what Kisi now says: the list shows it without waiting for the memory to age.
      const switched = [...known.entries()].filter(([, entry]) => entry.user?.id === kisiUserId);
      for (const [email, entry] of switched) remember(email, { ...entry.user!, accessEnabled: enabled });
    },
  };
}
export type KisiDoorAccess = ReturnType<typeof kisiDoorAccess>;
