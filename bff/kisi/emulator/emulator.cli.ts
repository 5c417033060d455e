import crypto from 'node:crypto';
import { createLogger } from '../../lib/logger';
import { startKisiEmulator } from './emulator';

/**
 * The Kisi emulator on its own, in a process of its own, standing in for a remote Kisi: point a
 * BFF's KISI_BASE_URL, KISI_API_KEY, KISI_GROUP_ID and KISI_WEBHOOK_SECRET at it. Its unlocks post
 * signed webhooks to KISI_WEBHOOK_URL (the BFF's /api/webhooks/kisi) and, like Kisi, do not retry a
 * receiver that is away. Settings (environment):
 *   DATABASE_URL         its own store (default: in memory): file:<path> (SQLite), or postgres://…, where
 *                        it keeps the schema kisi_emulator; seeded with the demo organisation when empty
 *   PORT, HOST           where it listens (default any free port on 127.0.0.1)
 *   KISI_API_KEY         the key it accepts (default: generated and printed)
 *   KISI_WEBHOOK_SECRET  the webhook signature key (default: generated and printed)
 *   KISI_WEBHOOK_URL     where webhooks go (default: none, they are only logged)
 *   LOG_LEVEL            default info
 * Usage: node --import tsx bff/kisi/emulator/emulator.cli.ts
 */
async function main(env: NodeJS.ProcessEnv): Promise<void> {
  const port = env.PORT ? Number(env.PORT) : 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('PORT must be a whole number from 0 to 65535');
  const generated = (value: string | undefined) => (value ? { value, shown: false } : { value: crypto.randomBytes(24).toString('base64url'), shown: true });
  const apiKey = generated(env.KISI_API_KEY);
  const secret = generated(env.KISI_WEBHOOK_SECRET);
  const logger = createLogger(env.LOG_LEVEL || 'info');

  const emulator = await startKisiEmulator({
    storeUrl: env.DATABASE_URL || ':memory:',
    logger,
    apiKey: apiKey.value,
    webhookSecret: secret.value,
    webhookUrl: () => env.KISI_WEBHOOK_URL || undefined,
    port,
    host: env.HOST || undefined,
  });
  console.log(`Kisi emulator is running at ${emulator.url}`);
  console.log(`KISI_GROUP_ID=${await emulator.defaultGroupId()}`);
  if (apiKey.shown) console.log(`KISI_API_KEY=${apiKey.value}`);
  if (secret.shown) console.log(`KISI_WEBHOOK_SECRET=${secret.value}`);

  const stop = () =>
    void emulator
      .settle()
      .then(() => emulator.close())
      .then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main(process.env).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
