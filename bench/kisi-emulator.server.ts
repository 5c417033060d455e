import { openDatabase } from '../bff/db/database';
import { startKisiEmulator } from '../bff/kisi/emulator/emulator';
import { seedKisiOrganisation } from '../bff/kisi/emulator/emulator.seed';
import { createLogger } from '../bff/lib/logger';

// The Kisi emulator on its own, in its own process, standing in for a remote Kisi (proxy benchmark).
const database = await openDatabase(process.env.DATABASE_URL ?? ':memory:');
await seedKisiOrganisation(database.db);
const emulator = await startKisiEmulator({ db: database.db, logger: createLogger('silent'), apiKey: process.env.KISI_API_KEY, webhookSecret: 'bench-webhook-secret-unused', webhookUrl: () => undefined });
console.log(`Kisi emulator is running at ${emulator.url}`);
process.on('SIGTERM', () => void emulator.close().then(() => database.close()).then(() => process.exit(0)));
