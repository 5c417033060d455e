import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from './app';
import { loadConfig } from './config';
import { openDatabase } from './db/database';
import { seedIfEmpty, type Seeder } from './db/seed';
import { accountsRepository } from './features/auth/accounts.repository';
import { authService } from './features/auth/auth.service';
import { sessionsRepository } from './features/auth/sessions.repository';
import { createLogger } from './lib/logger';

export const SHUTDOWN_GRACE_MS = 10_000;

/** Demo data for a brand-new database; each area adds its seeder here. */
const SEEDERS: Seeder[] = [];

export interface RunningServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

function readVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Opens the database, prepares the first admin and demo data, and listens. */
export async function startServer(env: Record<string, string | undefined>, announce: (line: string) => void = console.log): Promise<RunningServer> {
  const config = loadConfig(env);
  const logger = createLogger(config.LOG_LEVEL);
  const database = await openDatabase(config.DATABASE_URL);

  const auth = authService({
    accounts: accountsRepository(database.db),
    sessions: sessionsRepository(database.db),
    sessionTtlMs: config.SESSION_TTL_HOURS * 3_600_000,
  });
  const admin = await auth.ensureAdmin(config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  await seedIfEmpty(database.db, SEEDERS);
  await auth.purgeEndedSessions();
  const purgeTimer = setInterval(() => void auth.purgeEndedSessions().catch((err) => logger.warn({ err }, 'session purge failed')), 3_600_000);
  purgeTimer.unref();

  // TODO(kisi): replaced by the Kisi client once the proxy/emulator lands (issue 4).
  const door = { findUser: async () => null, setAccess: async () => {} };
  const app = createApp({ config, database, logger, version: readVersion(), door });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.PORT, config.HOST, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST}:${port}`;

  announce(`Frontdesk is running at ${url}`);
  if (admin.generatedPassword) {
    announce(`First start: created the admin account. Log in at ${url}/login with`);
    announce(`  email:    ${config.ADMIN_EMAIL}`);
    announce(`  password: ${admin.generatedPassword}   (shown only this once; change it with npm run account -- password)`);
  } else if (admin.created) {
    announce(`First start: created the admin account ${config.ADMIN_EMAIL} with the password from ADMIN_PASSWORD.`);
  } else {
    announce(`Log in at ${url}/login (admin: ${config.ADMIN_EMAIL}; add accounts with npm run account -- add).`);
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      clearInterval(purgeTimer);
      (app.locals.closeStreams as () => void)();
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
        server.closeIdleConnections();
      });
      await database.close();
    })());

  return { url, server, close };
}
