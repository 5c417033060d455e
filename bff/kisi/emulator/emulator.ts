import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Logger } from '../../lib/logger';
import { signBody } from '../signature';
import { createEmulatorApp } from './emulator.app';
import { openEmulatorDatabase, type EmulatorDatabase, type EmulatorDb } from './emulator.database';
import { UNLOCK_FAILURES, unlockEvent, unlockFailure, type EmulatorUnlockEvent } from './emulator.events';
import { seedKisiHistory, type PastWebhookDelivery } from './emulator.history';
import { DEFAULT_GROUP_META_KEY, INTEGRATION_USER, seedKisiOrganisation } from './emulator.seed';
import type { UnlockOutcome } from './emulator.locks';
import { kisiNow } from './emulator.shared';
import { emulatorStore } from './emulator.store';

export type SimulatedUnlock =
  | { kind: 'done'; event: EmulatorUnlockEvent }
  | { kind: 'no-user' }
  | { kind: 'no-lock' };

export interface KisiEmulatorOptions {
  /**
   * Its own store (emulator.database.ts; beside a BFF's database: `emulatorStoreBeside(DATABASE_URL)`),
   * opened, brought up to date and, when empty, seeded with the demo organisation.
   */
  storeUrl: string;
  /** When it seeds an empty store: the organisation's past door events too, handed here (the BFF's webhook receiver). */
  history?: PastWebhookDelivery;
  logger: Logger;
  /** The key the emulator accepts; generated when not given. */
  apiKey?: string;
  /** The webhook signature key shared with the BFF's receiver. */
  webhookSecret: string;
  /** Where signed webhooks go (the BFF's /api/webhooks/kisi); undefined while the BFF is not listening yet. */
  webhookUrl: () => string | undefined;
  rateLimitPerSecond?: number;
  webhookTimeoutMs?: number;
  /** Where it listens: 127.0.0.1 and any free port unless given (the emulator CLI names them). */
  port?: number;
  host?: string;
}

export interface KisiEmulator {
  /** http://127.0.0.1:<port> */
  url: string;
  apiKey: string;
  /** Its own store (tests read and write it directly). */
  database: EmulatorDatabase;
  /** The group the BFF's access links go to (KISI_GROUP_ID in emulator mode). */
  defaultGroupId: () => Promise<number>;
  /** The control endpoint's action: `email` unlocks a door (the first they may open, unless `lockId`). */
  simulateUnlock: (email: string, lockId?: number) => Promise<SimulatedUnlock>;
  /** Resolves once every webhook sent so far has been delivered or has failed (for tests). */
  settle: () => Promise<void>;
  /** Stops listening and closes its store. */
  close: () => Promise<void>;
}

/**
 * An empty store gets the demo organisation and, when `history` is given, its past, in one
 * transaction: a start that dies half-way leaves the store empty, to be seeded by the next. The
 * past's webhooks are handed over before that commits, so the one gap (the store failing to commit
 * after the receiver stored them) would show a second past after the next start. Only this store's
 * content decides, never the BFF's seed marker: a BFF database seeded long ago, whose emulator data
 * 012-kisi-emulator-moved-out dropped, gets a seeded organisation back.
 */
async function seedIfEmpty(db: EmulatorDb, history: PastWebhookDelivery | undefined): Promise<void> {
  if (await db.selectFrom('kisi_emu_places').select('id').limit(1).executeTakeFirst()) return;
  await db.transaction().execute(async (trx) => {
    await seedKisiOrganisation(trx);
    if (history) await seedKisiHistory(trx, { deliver: history });
  });
}

/** Starts the stand-in Kisi (on 127.0.0.1 and a random port unless told), in this process, over its own store. */
export async function startKisiEmulator(options: KisiEmulatorOptions): Promise<KisiEmulator> {
  const database = await openEmulatorDatabase(options.storeUrl);
  try {
    // Instances starting together on one PostgreSQL take turns: one seeds, the others find it done.
    await database.exclusively(() => seedIfEmpty(database.db, options.history));
    return await serve(options, database);
  } catch (err) {
    await database.close();
    throw err;
  }
}

async function serve(options: KisiEmulatorOptions, database: EmulatorDatabase): Promise<KisiEmulator> {
  const { logger } = options;
  const { db } = database;
  const store = emulatorStore(db);
  const apiKey = options.apiKey ?? crypto.randomBytes(24).toString('base64url');
  const pending = new Set<Promise<void>>();

  const apiUserId = async () => (await store.findUserByEmail(INTEGRATION_USER.email))?.id ?? null;

  /** POSTs the event, signed, without holding up the caller; a failure is logged, never thrown. */
  function deliver(event: EmulatorUnlockEvent) {
    const url = options.webhookUrl();
    if (!url) {
      logger.warn({ uuid: event.uuid }, 'kisi emulator: no webhook receiver yet, event not delivered');
      return;
    }
    const body = JSON.stringify(event);
    const delivery = fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Signature': `sha256=${signBody(body, options.webhookSecret)}`, 'User-Agent': 'Kisi-Emulator-Webhook' },
      body,
      signal: AbortSignal.timeout(options.webhookTimeoutMs ?? 5000),
    })
      .then(async (res) => {
        await res.arrayBuffer();
        if (!res.ok) logger.warn({ uuid: event.uuid, status: res.status }, 'kisi emulator: webhook rejected');
      })
      .catch((err: unknown) => logger.warn({ uuid: event.uuid, err: err instanceof Error ? err.message : String(err) }, 'kisi emulator: webhook delivery failed'))
      .finally(() => pending.delete(delivery));
    pending.add(delivery);
  }

  /** Records a `lock.unlock` event (success or not) and sends its webhook, as Kisi does. */
  async function unlockAs(user: { id: number; name: string; access_enabled: number }, lock: { id: number; name: string; place_id: number; online: number; locked_down: number }) {
    const at = kisiNow();
    const failure = await unlockFailure({
      lockedDown: lock.locked_down === 1,
      online: lock.online === 1,
      accessEnabled: user.access_enabled === 1,
      canOpen: () => store.userCanOpen(user.id, lock.id, at),
    });
    const event = unlockEvent(crypto.randomUUID(), user, lock, failure, at);
    await store.recordEvent(event);
    if (!failure) await store.touchUserAccess(user.id, at);
    deliver(event);
    return event;
  }

  async function remoteUnlock(lockId: number): Promise<UnlockOutcome> {
    const lock = await store.lockRow(lockId);
    if (!lock) return { status: 404, body: { error: 'The door could not be found.', code: 'fad10e' } };
    const user = await store.findUserByEmail(INTEGRATION_USER.email);
    if (!user) return { status: 404, body: { error: 'The door could not be found.', code: 'fad10e' } };
    const event = await unlockAs(user, lock);
    if (event.success) return { status: 200, body: { message: 'Unlocked!' } };
    const status = event.error_code === UNLOCK_FAILURES.offline[0] ? 503 : event.error_code === UNLOCK_FAILURES.lockedDown[0] ? 409 : 404;
    return { status: status as UnlockOutcome['status'], body: { error: event.error_message ?? 'Access denied.', code: event.error_code ?? 'afc496' } };
  }

  const app = createEmulatorApp({ store, apiKey, apiUserId, unlock: remoteUnlock, rateLimitPerSecond: options.rateLimitPerSecond });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(options.port ?? 0, options.host ?? '127.0.0.1', (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  const host = !options.host || options.host === '0.0.0.0' ? '127.0.0.1' : options.host === '::' ? '[::1]' : options.host;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    apiKey,
    database,
    async defaultGroupId() {
      const meta = await db.selectFrom('kisi_emu_meta').select('value').where('key', '=', DEFAULT_GROUP_META_KEY).executeTakeFirst();
      const id = Number(meta?.value);
      if (Number.isInteger(id) && id > 0) return id;
      const first = await db.selectFrom('kisi_emu_groups').select('id').orderBy('id').executeTakeFirst();
      return first?.id ?? 1;
    },
    async simulateUnlock(email, lockId) {
      const user = await store.findUserByEmail(email);
      if (!user) return { kind: 'no-user' };
      const lock = lockId === undefined ? await store.firstOpenableLock(user.id) : await store.lockRow(lockId);
      if (!lock) return { kind: 'no-lock' };
      return { kind: 'done', event: await unlockAs(user, lock) };
    },
    async settle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    close: () =>
      (closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await database.close();
      })()),
  };
}
