import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { createApp, type AppDeps } from '../app';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Database } from '../db/database';
import { accountsRepository } from '../features/auth/accounts.repository';
import { authService } from '../features/auth/auth.service';
import { sessionsRepository } from '../features/auth/sessions.repository';
import { createLogger } from '../lib/logger';
import type { Role } from '../contracts/auth.contract';

export const TEST_PASSWORD = 'correct-horse-battery';

export interface TestContext {
  app: ReturnType<typeof createApp>;
  config: Config;
  database: Database;
  dir: string;
  /** Creates an account and returns a supertest agent logged in as it. */
  loginAs: (role: Role, email?: string) => Promise<ReturnType<typeof request.agent>>;
  close: () => Promise<void>;
}

/** A fresh app over its own temporary SQLite file; call close() in afterAll. */
/** A door-access provider with no Kisi behind it: every member is unknown to Kisi. */
export const NO_KISI_DOOR: AppDeps['door'] = { findUser: async () => null, setAccess: async () => {} };

export async function createTestContext(env: Record<string, string> = {}, overrides: Partial<AppDeps> = {}): Promise<TestContext> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-test-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: `file:${path.join(dir, 'test.db')}`, STATIC_DIR: path.join(dir, 'static'), ...env });
  const database = await openDatabase(config.DATABASE_URL);
  const app = createApp({ config, database, logger: createLogger(config.LOG_LEVEL), version: '0.0.0-test', door: NO_KISI_DOOR, ...overrides });
  const auth = authService({ accounts: accountsRepository(database.db), sessions: sessionsRepository(database.db), sessionTtlMs: 3_600_000 });
  let counter = 0;

  return {
    app,
    config,
    database,
    dir,
    async loginAs(role, email = `${role}${++counter}@frontdesk.test`) {
      await auth.addAccount({ email, name: `Test ${role}`, role, password: TEST_PASSWORD });
      const agent = request.agent(app);
      await agent.post('/api/auth/login').send({ email, password: TEST_PASSWORD }).expect(200);
      return agent;
    },
    async close() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
