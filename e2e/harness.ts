import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, ConsoleMessage, Page, PageScreenshotOptions } from 'playwright-core';
import { startServer } from '../bff/server';
import { startSampleUpstreams, type SampleUpstreams } from '../bff/test-support/sample-upstreams';
import { openDatabase, type Database } from '../bff/db/database';
import { authServiceOn } from '../bff/features/auth/auth.service';
import type { Role } from '../bff/contracts/endpoint.contract';

/** The shared browser-test harness: the real BFF serving the built SPA, and the system Chromium. */
export const ADMIN = { email: 'admin@frontdesk.test', password: 'correct-horse-battery', name: 'Administrator' };
export type Account = { email: string; password: string; name: string; role: Role };

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Endless animations (the live dot's pulse, spinners, skeleton shimmer) would have the compositor draw
  // every frame of every open page: on two cores that CPU is the browser tests' own bottleneck.
  '--force-prefers-reduced-motion',
];

export type PageProblems = { messages: string[] };

export type E2eApp = {
  url: string;
  browser: Browser;
  /** A fresh browser context (own cookies) and page, with page errors collected. */
  newPage: (options?: { viewport?: { width: number; height: number } }) => Promise<{ page: Page; context: BrowserContext; problems: PageProblems }>;
  /** The local fakes of the sample pages' upstreams the app is pointed at (switch them slow or down). */
  samples: SampleUpstreams;
  /** Adds an account straight to the app's database, as `npm run account -- add` does. */
  addAccount: (account: Account) => Promise<void>;
  /** Works on the app's database directly (what no page or endpoint changes, e.g. a piece's picture address). */
  withDatabase: <T>(work: (database: Database) => Promise<T>) => Promise<T>;
  close: () => Promise<void>;
};

/** Calls the app makes on purpose that the browser logs as failed resources. */
export type ExpectedFailure = { path: string | RegExp; status: number };
// None: a visitor's pages ask who is signed in without an error status (docs/decisions/0066).
const ALWAYS_EXPECTED: ExpectedFailure[] = [];

function isExpected(message: ConsoleMessage, expected: ExpectedFailure[]): boolean {
  const match = /status of (\d{3})/.exec(message.text());
  if (!match) return false;
  const status = Number(match[1]);
  const path = new URL(message.location().url || 'http://x/').pathname;
  return expected.some((e) => e.status === status && (typeof e.path === 'string' ? e.path === path : e.path.test(path)));
}

/** Collects uncaught page errors and console errors (minus expected failed calls). */
export function watchProblems(page: Page, extraExpected: ExpectedFailure[] = []): PageProblems {
  const problems: PageProblems = { messages: [] };
  const expected = [...ALWAYS_EXPECTED, ...extraExpected];
  page.on('pageerror', (error) => problems.messages.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error' || isExpected(message, expected)) return;
    problems.messages.push(`console.error: ${message.text()} (${message.location().url})`);
  });
  return problems;
}

/** `env`: settings added to (or overriding) the test server's, e.g. `{ UPLOAD_MAX_FILE_MB: '32' }`. */
/** The built client the test server serves; `E2E_STATIC_DIR` picks another build (side-by-side work, each with its own). */
const STATIC_DIR = process.env.E2E_STATIC_DIR ?? 'dist/client';

export async function startApp({ env = {} }: { env?: Record<string, string> } = {}): Promise<E2eApp> {
  if (!existsSync(join(STATIC_DIR, 'index.html'))) throw new Error(`${STATIC_DIR} is missing: run \`npm run build\` first`);
  // The browser first: when it cannot start (not installed), nothing else is left running to keep the test process alive.
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const dir = mkdtempSync(join(tmpdir(), 'frontdesk-e2e-'));
  const databaseUrl = `file:${join(dir, 'e2e.db')}`;
  // The sample pages' upstreams: local fakes with the real shapes and quirks (no test reaches the internet).
  const samples = await startSampleUpstreams();
  const server = await startServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
      STATIC_DIR,
      UPLOADS_DIR: join(dir, 'uploads'),
      ...samples.env,
      SAMPLES_IMAGE_DIR: join(dir, 'sample-images'),
      CATALOGUE_IMAGE_DIR: join(dir, 'catalogue-images'),
      BACKUP_DIR: join(dir, 'backups'),
      ...env,
    },
    () => undefined,
  );
  return {
    url: server.url,
    browser,
    samples,
    async newPage(options = {}) {
      const context = await browser.newContext({ baseURL: server.url, viewport: options.viewport ?? { width: 1280, height: 800 } });
      const page = await context.newPage();
      const problems = watchProblems(page);
      return { page, context, problems };
    },
    async addAccount({ email, password, name, role }) {
      const database = await openDatabase(databaseUrl);
      try {
        const auth = authServiceOn(database.db, { sessionTtlMs: 0 });
        await auth.addAccount(null, { email, password, name, role });
      } finally {
        await database.close();
      }
    },
    async withDatabase(work) {
      const database = await openDatabase(databaseUrl);
      try {
        return await work(database);
      } finally {
        await database.close();
      }
    },
    async close() {
      await browser.close();
      await server.close();
      await samples.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the real form. */
export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  // Exact: "Sign in with a passkey" is a button of the form too.
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

export type UnlockResult = { success: boolean; message: string; event: { object_name: string; uuid: string } };

/** The emulator's control endpoint, called from the page (its session cookie, JSON so CSRF passes): `email` opens a door. */
export async function simulateUnlock(page: Page, email: string): Promise<UnlockResult> {
  const { status, body } = await page.evaluate(async (who) => {
    const res = await fetch('/api/kisi-emulator/unlocks', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: who }) });
    return { status: res.status, body: (await res.json()) as unknown };
  }, email);
  assert.equal(status, 200, JSON.stringify(body));
  return body as UnlockResult;
}

/**
 * A test file's screenshots: with SHOTS_DIR set, what the person sees (the viewport by default; a
 * full-page shot of a scrolled phone page paints its sticky header mid-page) saved there as
 * `<prefix>-<name>.png`; without it, nothing.
 */
export function shotsOf(prefix: string, options: Omit<PageScreenshotOptions, 'path'> = {}) {
  return async (page: Page, name: string) => {
    const dir = process.env.SHOTS_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ ...options, path: join(dir, `${prefix}-${name}.png`) });
  };
}
