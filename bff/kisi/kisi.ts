import crypto from 'node:crypto';
import { kisiMode, type Config } from '../config';
import type { Db } from '../db/database';
import type { Logger } from '../lib/logger';
import { startKisiEmulator, type KisiEmulator } from './emulator/emulator';
import { kisiClient, type KisiClient, type KisiSettings } from './kisi-client';
import { createRateLimiter, KISI_RATE_LIMIT_PER_SECOND, type RateLimiter } from './rate-limiter';

/** Everything the BFF needs to talk to Kisi: where, with which key, and one shared rate limiter. */
export interface Kisi {
  settings: KisiSettings;
  limiter: RateLimiter;
  client: KisiClient;
  /** Present in emulator mode (the control endpoint uses it). */
  emulator?: KisiEmulator;
}

export function createKisi(settings: KisiSettings, options: { ratePerSecond?: number; emulator?: KisiEmulator } = {}): Kisi {
  const limiter = createRateLimiter({ perSecond: options.ratePerSecond ?? KISI_RATE_LIMIT_PER_SECOND });
  return { settings, limiter, client: kisiClient(settings, limiter), emulator: options.emulator };
}

export interface ConnectKisiOptions {
  config: Config;
  db: Db;
  logger: Logger;
  /** The BFF's own webhook URL once it listens (the emulator posts its events there). */
  webhookUrl: () => string | undefined;
  /** Outgoing Kisi requests per second (default Kisi's 5; the proxy benchmark raises it). */
  ratePerSecond?: number;
}

/**
 * Remote mode (KISI_BASE_URL set): the configured Kisi. Emulator mode: starts the built-in emulator
 * on 127.0.0.1 with its own key (KISI_API_KEY if given, else generated), the seeded default group,
 * and a webhook secret shared with the receiver (KISI_WEBHOOK_SECRET if given, else generated).
 */
export async function connectKisi({ config, db, logger, webhookUrl, ratePerSecond }: ConnectKisiOptions): Promise<Kisi> {
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
      { ratePerSecond },
    );
  }
  const webhookSecret = config.KISI_WEBHOOK_SECRET ?? crypto.randomBytes(32).toString('hex');
  const emulator = await startKisiEmulator({ db, logger, apiKey: config.KISI_API_KEY, webhookSecret, webhookUrl });
  return createKisi(
    {
      mode: 'emulator',
      baseUrl: emulator.url,
      apiKey: emulator.apiKey,
      groupId: config.KISI_GROUP_ID ?? (await emulator.defaultGroupId()),
      timeoutMs: config.KISI_TIMEOUT_MS,
      webhookSecret,
    },
    { ratePerSecond, emulator },
  );
}
