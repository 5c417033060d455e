import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp, type App, type AppDeps } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/database';
import { authServiceOn } from '../features/auth/auth.service';
import { connectKisi, createKisi, type Kisi } from '../kisi/kisi';
import { createLogger } from '../lib/logger';
import { tcpLink, type TcpLink } from './tcp-link';
import { createTestDatabase } from './test-database';
import type { Role } from '../contracts/endpoint.contract';

export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestContext extends Pick<App, 'bus' | 'endpoints' | 'jobs' | 'endStreams' | 'drain'> {
  app: App['app'];
  config: Config;
  database: Database;
  dir: string;
  /** Creates an account and returns a supertest agent logged in as it. */
  loginAs: (role: Role, email?: string) => Promise<ReturnType<typeof request.agent>>;
  /** With `{ emulator: true }`: the seeded Kisi emulator behind the app (and its door access); its store is beside the database. */
  kisi?: Kisi;
  /** With `{ emulator: true }`: the app also listens on 127.0.0.1 (the emulator posts its webhooks there). */
  url?: string;
  /** With `{ emulator: true, kisiLink: true }`: the network between the app and the emulator, to cut and restore. */
  kisiLink?: TcpLink;
  /** With `kisiLink`: the emulator reached directly, whatever the link's state (to see what Kisi has). */
  kisiDirect?: Kisi;
  close: () => Promise<void>;
}

/** A door-access provider with no Kisi behind it: every member is unknown to Kisi. */
export const NO_KISI_DOOR: AppDeps['door'] = { findUser: async () => null, findUsers: async (emails) => new Map(emails.map((e) => [e, null])), setAccess: async () => {}, probe: async () => {} };

export interface TestContextOptions {
  /** Start the Kisi emulator (seeded organisation, signed webhooks back to the app) as the app's Kisi. */
  emulator?: boolean;
  /** Outgoing Kisi requests per second in the test (default 100, so tests are not throttled to Kisi's 5). */
  kisiRatePerSecond?: number;
  /** The app reaches the emulator through a link the test can cut (`kisiLink`). */
  kisiLink?: boolean;
}

/** A fresh app over a database of its own (see `createTestDatabase`); call close() in afterAll. */
export async function createTestContext(env: Record<string, string> = {}, overrides: Partial<AppDeps> = {}, options: TestContextOptions = {}): Promise<TestContext> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-test-'));
  const testDatabase = await createTestDatabase(dir);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: testDatabase.url, STATIC_DIR: path.join(dir, 'static'), UPLOADS_DIR: path.join(dir, 'uploads'), SAMPLES_IMAGE_DIR: path.join(dir, 'sample-images'), CATALOGUE_IMAGE_DIR: path.join(dir, 'catalogue-images'), BACKUP_DIR: path.join(dir, 'backups'), ...env });
  const database = await openDatabase(config.DATABASE_URL, { statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS });
  const logger = overrides.logger ?? createLogger(config.LOG_LEVEL);
  let webhookUrl: string | undefined;
  let kisi: Kisi | undefined;
  if (options.emulator) {
    kisi = await connectKisi({ config, database, logger, webhookUrl: () => webhookUrl, ratePerSecond: options.kisiRatePerSecond ?? 100 });
  }
  let link: TcpLink | undefined;
  const kisiDirect = kisi;
  if (kisi && options.kisiLink) {
    link = await tcpLink(kisi.settings.baseUrl);
    kisi = createKisi({ ...kisi.settings, baseUrl: link.url }, { ratePerSecond: options.kisiRatePerSecond ?? 100, emulator: kisi.emulator });
  }
  const built = createApp({
    config,
    database,
    logger,
    version: '0.0.0-test',
    door: kisi ? kisi.door : NO_KISI_DOOR,
    kisi,
    ...overrides,
  });
  const { app } = built;
  let server: Server | undefined;
  if (options.emulator) {
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    webhookUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/kisi`;
  }
  const auth = authServiceOn(database.db, { sessionTtlMs: 3_600_000 });
  let counter = 0;

  return {
    app,
    bus: built.bus,
    endpoints: built.endpoints,
    jobs: built.jobs,
    endStreams: built.endStreams,
    drain: built.drain,
    config,
    database,
    dir,
    kisi,
    url: webhookUrl?.replace(/\/api\/webhooks\/kisi$/, ''),
    kisiLink: link,
    kisiDirect: link ? kisiDirect : undefined,
    async loginAs(role, email = `${role}${++counter}@frontdesk.test`) {
      await auth.addAccount(null, { email, name: `Test ${role}`, role, password: TEST_PASSWORD });
      const agent = request.agent(app);
      await agent.post('/api/auth/login').send({ email, password: TEST_PASSWORD }).expect(200);
      return agent;
    },
    async close() {
      // Jobs are not started in tests, but some are woken by requests (the actor-email resolver): let them end.
      await Promise.all(built.jobs.map((job) => job.stop()));
      await link?.close();
      await kisi?.emulator?.settle();
      await kisi?.emulator?.close();
      if (server) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server!.close(() => resolve()));
      }
      await database.close();
      await testDatabase.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** What {@link withTestContext} builds its context from: {@link createTestContext}'s arguments, by name. */
export interface TestContextSetup {
  env?: Record<string, string>;
  overrides?: Partial<AppDeps>;
  options?: TestContextOptions;
}

/** A context for one test (other settings than the file's): built, handed to `test`, and closed whatever `test` ends with. */
export async function withTestContext<T>(setup: TestContextSetup, test: (context: TestContext) => Promise<T>): Promise<T> {
  const context = await createTestContext(setup.env, setup.overrides, setup.options);
  try {
    return await test(context);
  } finally {
    await context.close();
  }
}
