import crypto from 'node:crypto';
import { kisiMode, type Config } from '../config';
import type { Database } from '../db/database';
import { sharedRateWindow } from '../db/shared-limits';
import type { Logger } from '../lib/logger';
import { startKisiEmulator, type KisiEmulator } from './emulator/emulator';
import { emulatorStoreBeside } from './emulator/emulator.database';
import type { PastWebhookDelivery } from './emulator/emulator.history';
import { kisiClient, type KisiClient, type KisiSettings } from './kisi-client';
import { kisiDoorAccess, type KisiDoorAccess } from './kisi-door-access';
import { createRateLimiter, KISI_RATE_LIMIT_PER_SECOND, KISI_RATE_MARGIN_MS, KISI_RATE_WINDOW_MS, type RateLimiter, type ReserveStart } from './rate-limiter';

/** Everything the BFF needs to talk to Kisi: where, with which key, and one shared rate limiter. */
export interface Kisi {
  settings: KisiSettings;
  limiter: RateLimiter;
  client: KisiClient;
  /** The gym's door access over `client`, with its short memory of Kisi users (the proxy tells it of switches made through it). */
  door: KisiDoorAccess;
  /** Present in emulator mode (the control endpoint uses it). */
  emulator?: KisiEmulator;
  /** The Kisi user the API key belongs to, asked of Kisi once (again after a failure) and kept: the actor of remote unlocks. */
  apiAccountId: () => Promise<number>;
}

export function createKisi(settings: KisiSettings, options: { ratePerSecond?: number; emulator?: KisiEmulator; reserve?: ReserveStart } = {}): Kisi {
  const limiter = createRateLimiter({ perSecond: options.ratePerSecond ?? KISI_RATE_LIMIT_PER_SECOND, reserve: options.reserve });
  const client = kisiClient(settings, limiter);
  let apiAccount: Promise<number> | undefined;
  const apiAccountId = () =>
    (apiAccount ??= client.currentUserId().catch((err: unknown) => {
      apiAccount = undefined;
      throw err;
    }));
  return { settings, limiter, client, door: kisiDoorAccess(client), emulator: options.emulator, apiAccountId };
}

export interface ConnectKisiOptions {
  config: Config;
  /** Holds the rate window that every instance on it shares; the emulator keeps its store beside it. */
  database: Database;
  logger: Logger;
  /** The BFF's own webhook URL once it listens (the emulator posts its events there). */
  webhookUrl: () => string | undefined;
  /** Outgoing Kisi requests per second (default Kisi's 5; the proxy benchmark raises it). */
  ratePerSecond?: number;
  /** Emulator mode: where the emulator hands its organisation's past door events when it seeds its store (none if not given). */
  history?: PastWebhookDelivery;
}

/**
 * Remote mode (KISI_BASE_URL set): the configured Kisi. Emulator mode: starts the built-in emulator
 * on 127.0.0.1 over its own store beside the database, with its own key (KISI_API_KEY if given, else
 * generated), the seeded default group, and a webhook secret shared with the receiver
 * (KISI_WEBHOOK_SECRET if given, else generated).
 */
export async function connectKisi({ config, database, logger, webhookUrl, ratePerSecond = KISI_RATE_LIMIT_PER_SECOND, history }: ConnectKisiOptions): Promise<Kisi> {
  // Kisi counts requests per API key, whichever instance sends them: the window is the database's.
  const reserve = sharedRateWindow(database, 'kisi', ratePerSecond, KISI_RATE_WINDOW_MS + KISI_RATE_MARGIN_MS);
  if (kisiMode(config) === 'remote') {
    return createKisi(
      {
        mode: 'remote',
        baseUrl: config.KISI_BASE_URL!,
        apiKey: config.KISI_API_KEY!,
        groupId: config.KISI_GROUP_ID!,
        timeoutMs: config.KISI_TIMEOUT_MS,
        webhookSecret: config.KISI_WEBHOOK_SECRET,
      },
      { ratePerSecond, reserve },
    );
  }
  const webhookSecret = config.KISI_WEBHOOK_SECRET ?? crypto.randomBytes(32).toString('hex');
  const emulator = await startKisiEmulator({ storeUrl: emulatorStoreBeside(config.DATABASE_URL), history, logger, apiKey: config.KISI_API_KEY, webhookSecret, webhookUrl });
  return createKisi(
    {
      mode: 'emulator',
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      groupId: config.KISI_GROUP_ID ?? (await emulator.defaultGroupId()),
      timeoutMs: config.KISI_TIMEOUT_MS,
      webhookSecret,
    },
    { ratePerSecond, emulator, reserve },
  );
}
