import type { Selectable } from 'kysely';
import type { EmulatorDb } from './emulator.database';
import { unlockEvent, unlockFailure, type EmulatorUnlockEvent, type UnlockFailure } from './emulator.events';
import type { KisiEmuLocksTable, KisiEmuUsersTable } from './emulator.schema';
import { KISI_DEMO_WORKERS } from './emulator.seed';
import { emulatorStore } from './emulator.store';

/**
 * The seeded organisation's past: a few weeks of `lock.unlock` events, as the emulator would have
 * recorded them had its people used their doors. Each person with a `last_accessed_at` comes in
 * every few days (staff and stall holders more often than members): the first door that lets them
 * in, then a door or two of that place. Every visit ends with a door that opened, the last one at
 * exactly their `last_accessed_at`. Refusals come from the same rules as a live unlock: a door
 * someone has no right to (Access denied), the Server Room since its lockdown, the Cold Store since
 * its battery ran out (offline). Pseudo-random from a fixed seed, so the same organisation and the
 * same "now" give the same history.
 */

/** How far back the history goes. */
export const HISTORY_DAYS = 28;
/** A lock seeded offline (the Cold Store's, battery pending) went offline this long before the first start. */
export const OFFLINE_DAYS = 3;
const HISTORY_SEED = 0x4b15_1e55;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Hands past events, oldest first, to the BFF's webhook receiver, as if Kisi had delivered each at
 * its `deliveredAt`; `emailOfKisiUser` answers what the receiver would ask Kisi about an actor.
 */
export type PastWebhookDelivery = (
  deliveries: Array<{ event: EmulatorUnlockEvent; deliveredAt: string }>,
  emailOfKisiUser: (id: number) => Promise<string | null>,
) => Promise<void>;

/** mulberry32: a small, fast, seeded pseudo-random generator in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A version-4-shaped uuid from the generator (deterministic, unlike crypto.randomUUID). */
const seededUuid = (random: () => number) => {
  const bytes = Array.from({ length: 16 }, () => Math.floor(random() * 256));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const kisiTime = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

type User = Selectable<KisiEmuUsersTable>;
type Lock = Selectable<KisiEmuLocksTable>;
type Attempt = { lock: Lock; failure: UnlockFailure | undefined };

export interface KisiHistoryOptions {
  /** Receives the events after the emulator recorded them. */
  deliver: PastWebhookDelivery;
  /** The first start (default now): the history ends before it. */
  now?: Date;
}

/** Records the history in `kisi_emu_events` and delivers its webhooks; returns the events oldest first. */
export async function seedKisiHistory(db: EmulatorDb, { deliver, now = new Date() }: KisiHistoryOptions): Promise<EmulatorUnlockEvent[]> {
  const store = emulatorStore(db);
  const random = seededRandom(HISTORY_SEED);
  const between = (min: number, max: number) => min + random() * (max - min);
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
  const end = now.getTime();
  const start = end - HISTORY_DAYS * DAY;
  const offlineSince = end - OFFLINE_DAYS * DAY;

  const locks = (await db.selectFrom('kisi_emu_locks').selectAll().orderBy('order_id').orderBy('id').execute()) as Lock[];
  const users = (await db.selectFrom('kisi_emu_users').selectAll().where('last_accessed_at', 'is not', null).orderBy('id').execute()) as User[];

  // Whether someone may open a door only changes when one of their rights starts or ends: the store
  // answers once per person, door and period between those moments.
  const changes = new Map<number, number[]>();
  for (const role of await db.selectFrom('kisi_emu_role_assignments').select(['user_id', 'valid_from', 'valid_until']).execute()) {
    const list = changes.get(role.user_id) ?? [];
    for (const moment of [role.valid_from, role.valid_until]) if (moment) list.push(Date.parse(moment));
    changes.set(role.user_id, list);
  }
  const answers = new Map<string, boolean>();
  const canOpen = async (user: User, lock: Lock, at: number) => {
    const key = `${user.id}:${lock.id}:${(changes.get(user.id) ?? []).filter((moment) => moment <= at).length}`;
    let answer = answers.get(key);
    if (answer === undefined) answers.set(key, (answer = await store.userCanOpen(user.id, lock.id, kisiTime(at))));
    return answer;
  };

  /** A door's state at a past moment: a lockdown counts from when it began, an offline lock from OFFLINE_DAYS ago. */
  const lockedDownAt = (lock: Lock, at: number) => lock.locked_down === 1 && (!lock.locked_down_since || Date.parse(lock.locked_down_since) <= at);
  const onlineAt = (lock: Lock, at: number) => lock.online === 1 || at < offlineSince;
  const attempt = async (user: User, lock: Lock, at: number): Promise<Attempt> => ({
    lock,
    // Everyone with a last access was let in then, so their access was on until then (a pause came later).
    failure: await unlockFailure({
      lockedDown: lockedDownAt(lock, at),
      online: onlineAt(lock, at),
      accessEnabled: true,
      canOpen: () => canOpen(user, lock, at),
    }),
  });

  /**
   * One visit at `at`: the first door that lets them in; a door of theirs that is out of order then
   * (they try it and are refused); a door or two more of that place; now and then one they may not open.
   */
  async function visit(user: User, at: number): Promise<Attempt[]> {
    const rights = new Map<number, boolean>();
    for (const lock of locks) rights.set(lock.id, await canOpen(user, lock, at));
    const works = (lock: Lock) => !lockedDownAt(lock, at) && onlineAt(lock, at);
    const entry = locks.find((l) => rights.get(l.id) && works(l));
    if (!entry) return [];
    const attempts: Attempt[] = [{ lock: entry, failure: undefined }];
    const inside = locks.filter((l) => l.place_id === entry.place_id && l.id !== entry.id);
    for (const lock of inside.filter((l) => rights.get(l.id) && !works(l))) attempts.push(await attempt(user, lock, at));
    const usual = inside.filter((l) => rights.get(l.id) && works(l));
    const extra = random() < 0.55 ? 0 : random() < 0.85 ? 1 : 2;
    for (let i = 0; i < extra && usual.length; i++) {
      const lock = usual.splice(Math.floor(random() * usual.length), 1)[0]!;
      attempts.push(await attempt(user, lock, at));
    }
    const stray = random() < 0.12 ? pick(inside.filter((l) => !rights.get(l.id))) : undefined;
    if (stray) attempts.splice(1 + Math.floor(random() * attempts.length), 0, await attempt(user, stray, at));
    // Their last door opened: after a refusal they go through one that does (another of theirs, or back the way they came).
    if (attempts.at(-1)!.failure) attempts.push({ lock: usual[0] ?? entry, failure: undefined });
    return attempts;
  }

  const planned: Array<{ user: User; at: number; attempt: Attempt }> = [];
  for (const user of users) {
    const last = Date.parse(user.last_accessed_at!);
    if (!(last > start && last <= end)) continue;
    const everyDays = KISI_DEMO_WORKERS.has(user.email) ? between(2.5, 4) : between(5, 10);
    // Their last visit ends with a door that opened at last_accessed_at.
    const final = await visit(user, last);
    if (!final.length) continue;
    let at = last;
    for (const step of final.reverse()) {
      planned.push({ user, at, attempt: step });
      at -= Math.round(between(0.5, 5) * MINUTE);
    }

    // Earlier visits, every few days back to the start of the history, between 6:00 and 21:00.
    let day = last;
    for (;;) {
      day -= Math.round(everyDays * between(0.6, 1.4)) * DAY;
      const midnight = day - (day % DAY);
      let when = midnight + Math.round(between(6, 21) * HOUR) + Math.floor(random() * 60) * 1000;
      if (when < start) break;
      when = Math.min(when, last - 3 * HOUR);
      for (const step of await visit(user, when)) {
        planned.push({ user, at: when, attempt: step });
        when += Math.round(between(0.5, 5) * MINUTE);
      }
    }
  }

  planned.sort((a, b) => a.at - b.at || a.user.id - b.user.id);
  const deliveries = planned.map(({ user, at, attempt: step }) => ({
    event: unlockEvent(seededUuid(random), user, step.lock, step.failure, kisiTime(at)),
    deliveredAt: new Date(at + Math.round(between(300, 2500))).toISOString(),
  }));
  const events = deliveries.map((d) => d.event);
  await store.recordEvents(events);
  await deliver(deliveries, async (id) => (await store.userRow(id))?.email ?? null);
  return events;
}
