import type { Role } from '../bff/contracts/endpoint.contract';
import { openDatabase } from '../bff/db/database';
import { seedIfEmpty } from '../bff/db/seed';
import { authServiceOn } from '../bff/features/auth/auth.service';
import { standInClient } from '../bff/test-support/spawn-bff';
import { gymSeeder } from '../bff/features/gym/gym.seed';
import { KISI_DEMO_PEOPLE } from '../bff/kisi/emulator/emulator.seed';
import { startChildServer, type ChildServer } from './load';

/** The account the benchmarks start the BFF with (ADMIN_EMAIL, ADMIN_PASSWORD) and sign in as. */
export const BENCH_ADMIN = { email: 'bench@frontdesk.test', password: 'bench-password-123' };

/**
 * Starts the BFF in a process of its own as the benches measure it: production mode, silent, any
 * free port, the bench admin, and `staticDir` (given a stand-in index.html: the API is measured, no
 * client build is needed, but the BFF refuses to start without one). `env` adds or overrides settings.
 */
export const startBenchBff = (databaseUrl: string, staticDir: string, env: Record<string, string> = {}): Promise<ChildServer> =>
  startChildServer('bff/index.ts', {
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    STATIC_DIR: standInClient(staticDir),
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    ...env,
  });

/**
 * Fills a new database (SQLite `file:` or `postgres://`) with the gym's demo data and `members`
 * generated members, seeded the way the server seeds a new database (marker included), so the
 * server does not seed again on start (the Kisi emulator seeds its own store when it starts).
 */
export async function seedGymMembers(databaseUrl: string, members: number): Promise<void> {
  const seeded = await openDatabase(databaseUrl);
  try {
    await seedIfEmpty(seeded.db, [gymSeeder(KISI_DEMO_PEOPLE, members)]);
  } finally {
    await seeded.close();
  }
}

export interface BenchAccount {
  email: string;
  password: string;
}

/**
 * Adds accounts to a database (SQLite `file:` or `postgres://`; migrated on the way) the way
 * `npm run account -- add` does, before the server starts: the BFF has no endpoint that adds one.
 */
export async function addAccounts(databaseUrl: string, accounts: Array<BenchAccount & { name: string; role: Role }>): Promise<void> {
  const database = await openDatabase(databaseUrl);
  try {
    const auth = authServiceOn(database.db, { sessionTtlMs: 0 });
    await Promise.all(accounts.map((account) => auth.addAccount(null, account)));
  } finally {
    await database.close();
  }
}

/** Signs in (as the bench admin unless told otherwise) and answers the session cookie (`sid=…`) to send with each request. */
export async function signIn(baseUrl: string, account: BenchAccount = BENCH_ADMIN): Promise<string> {
  const login = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(account) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  if (!login.ok || !cookie) throw new Error(`bench sign-in as ${account.email} at ${baseUrl} failed with ${login.status}`);
  return cookie;
}
