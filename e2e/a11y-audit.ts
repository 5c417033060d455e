import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AxeBuilder } from '@axe-core/playwright';
import axe from 'axe-core';
import type { Result } from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN, signIn, startApp, watchProblems } from './harness';
import type { Account, E2eApp, PageProblems } from './harness';
import { NOT_FOUND_DOCUMENT, routePages, sampleIds, urlFor } from './route-table';
import type { Access, RoutePage } from './route-table';

interface AuditSize {
  name: string;
  viewport: { width: number; height: number };
}
const SIZES: AuditSize[] = [
  { name: '1280', viewport: { width: 1280, height: 800 } },
  { name: '390', viewport: { width: 390, height: 844 } },
];
const FAILING_IMPACTS = new Set(['serious', 'critical']);
/**
 * axe's default rules plus its experimental ones, among them label-content-name-mismatch (a
 * control whose accessible name leaves out the words it shows, which voice control users say).
 */
const RULES = Object.fromEntries(axe.getRules(['experimental']).map((rule) => [rule.ruleId, { enabled: true }]));
const STAFF: Account = { email: 'desk.staff@frontdesk.test', password: 'staff-password-long', name: 'Desk Staff', role: 'staff' };
const ACCOUNTS: Record<Access, Account | null> = { visitor: null, staff: STAFF, admin: { ...ADMIN, role: 'admin' } };

let app: E2eApp;
const sessions = new Map<Access, { context: BrowserContext; page: Page; problems: PageProblems }>();
let ids: Record<string, string> = {};
type Finding = { rule: string; impact: string; nodes: number; pattern: string };
const findings: Finding[] = [];
let pageViews = 0;
const sideways: string[] = [];

/** Requests still open (the live event stream never ends, so it does not count). */
function trackRequests(page: Page) {
  let open = 0;
  let lastChange = Date.now();
  const counts = (request: { resourceType: () => string }) => request.resourceType() !== 'eventsource';
  page.on('request', (r) => counts(r) && (open++, (lastChange = Date.now())));
  const done = (r: { resourceType: () => string }) => counts(r) && ((open = Math.max(0, open - 1)), (lastChange = Date.now()));
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return async function quiet(ms = 300, timeout = 15_000) {
    const started = Date.now();
    while (open > 0 || Date.now() - lastChange < ms) {
      if (Date.now() - started > timeout) throw new Error(`the network did not go quiet (${open} requests open)`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
}
const quietness = new WeakMap<Page, ReturnType<typeof trackRequests>>();

/**
 * The page as a user finds it once it has loaded: the layout is up (the first-load overlay of a
 * slow loader has gone), no request is open, and nothing in it spins or says it is busy.
 */
async function loaded(page: Page) {
  await page.locator('#main').waitFor({ timeout: 15_000 });
  await quietness.get(page)!();
  await page.waitForFunction(() => !document.querySelector('.pending-overlay, #main .spinner, #main [aria-busy="true"]'), null, { timeout: 15_000 });
  await quietness.get(page)!(150);
}

async function session(access: Access) {
  let s = sessions.get(access);
  if (!s) {
    const context = await app.browser.newContext({ baseURL: app.url });
    const page = await context.newPage();
    quietness.set(page, trackRequests(page));
    // The pages that fail on purpose, and the self-test's own probes.
    const problems = watchProblems(page, [
      { path: '/api/bad', status: 500 },
      { path: '/api/events', status: 401 },
      { path: '/api/events', status: 404 },
      NOT_FOUND_DOCUMENT,
    ]);
    const account = ACCOUNTS[access];
    if (account) {
      await page.goto('/login');
      await signIn(page, account.email, account.password);
      await page.waitForURL((url) => url.pathname === '/shell');
    }
    s = { context, page, problems };
    sessions.set(access, s);
  }
  return s;
}

function describeViolation(v: Result): string {
  const where = v.nodes
    .slice(0, 3)
    .map((n) => `      ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join('').trim() ?? ''}`)
    .join('\n');
  return `  ${v.impact} ${v.id} (${v.nodes.length}): ${v.help}\n${where}`;
}

/** What is wrong with the page as it is now, at `size`: axe's serious and critical findings, sideways scrolling, page errors. */
async function check(page: Page, problems: PageProblems, pattern: string, size: AuditSize): Promise<string[]> {
  const failures: string[] = [];
  // Legacy mode runs axe in the page itself: the default opens a blank page per audit to finish the
  // run (for cross-origin frames, which no page here has), and took half of each audit's time. Only
  // violations are collected (passes and incomplete results cost as much again, and nothing reads them).
  const results = await new AxeBuilder({ page }).setLegacyMode(true).options({ rules: RULES, resultTypes: ['violations'] }).analyze();
  pageViews += 1;
  for (const v of results.violations) findings.push({ rule: v.id, impact: v.impact ?? 'unknown', nodes: v.nodes.length, pattern });
  const failing = results.violations.filter((v) => FAILING_IMPACTS.has(v.impact ?? ''));
  if (failing.length) failures.push(`axe at ${size.name} px on ${page.url()}:\n${failing.map(describeViolation).join('\n')}`);

  // At either size: a page (or the header above it) wider than the window scrolls sideways.
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  if (scrollWidth > innerWidth) {
    sideways.push(`${pattern} at ${size.name} (${scrollWidth} px)`);
    failures.push(`${page.url()} scrolls sideways at ${innerWidth} px: the page is ${scrollWidth} px wide`);
  }
  if (problems.messages.length) failures.push(`page errors at ${size.name} px:\n${problems.messages.join('\n')}`);
  problems.messages.length = 0;
  return failures;
}

/**
 * Audits the page `url` opened as `access` at each size, one load: opened at the first, then the
 * window is resized to the next, as a tablet turned on its side or a narrowed window would do (the
 * layout is CSS media queries and resize listeners, so it follows without a reload). `pattern`
 * names the page in the summary.
 */
async function audit(access: Access, url: string, pattern: string) {
  const { page, problems } = await session(access);
  const [first, ...others] = SIZES;
  await page.setViewportSize(first!.viewport);
  problems.messages.length = 0;
  await page.goto(url);
  await loaded(page);
  const failures = await check(page, problems, pattern, first!);
  for (const size of others) {
    await page.setViewportSize(size.viewport);
    await loaded(page);
    failures.push(...(await check(page, problems, pattern, size)));
  }
  assert.equal(failures.join('\n'), '');
}

/**
 * Registers, in the calling test file, the audit of every page of the route table that `accesses`
 * open, in its loaded state, signed in with the role it needs, at 1280×800 and at 390×844: axe-core
 * finds no serious or critical violation, and the page never scrolls sideways. The route table is
 * read, not copied, so a new page is audited as soon as it is routed; a new `:param` needs a sample
 * id in route-table.ts. Two files split the pages (visitors' and signed-in staff's) so the two
 * audits, the longest browser tests, run side by side.
 */
export function auditEveryPage(accesses: Access[]) {
  const pages: RoutePage[] = routePages().filter((p) => accesses.includes(p.access));

  before(async () => {
    app = await startApp();
    await app.addAccount(STAFF);
    ids = await sampleIds((await session('admin')).page.request);
  });

  after(async () => {
    for (const { context } of sessions.values()) await context.close();
    await app?.close();
    const byRule = new Map<string, { impact: string; views: number; nodes: number; pages: Set<string> }>();
    for (const f of findings) {
      const entry = byRule.get(f.rule) ?? { impact: f.impact, views: 0, nodes: 0, pages: new Set() };
      entry.views += 1;
      entry.nodes += f.nodes;
      entry.pages.add(f.pattern);
      byRule.set(f.rule, entry);
    }
    const lines = [...byRule]
      .sort((a, b) => b[1].views - a[1].views)
      .map(([rule, e]) => `  ${e.impact.padEnd(9)} ${rule.padEnd(30)} ${String(e.views).padStart(3)} page views, ${String(e.nodes).padStart(4)} nodes: ${[...e.pages].join(' ')}`);
    console.log(`axe: ${pageViews} page views audited, ${findings.length} violations${lines.length ? `\n${lines.join('\n')}` : ''}`);
    console.log(`wider than the window: ${sideways.length ? sideways.join(', ') : 'none'}`);
  });

  describe(`every page ${accesses.join(' and ')} open, at 1280×800 and 390×844`, () => {
    for (const route of pages) {
      it(`${route.pattern} (${route.access})`, () => audit(route.access, urlFor(route.pattern, ids), route.pattern));
    }
    // Not a route of its own: what a staff member gets on an admin page.
    const adminPage = routePages().find((p) => p.access === 'admin' && !p.pattern.includes(':'));
    if (adminPage && accesses.includes('staff')) {
      it(`the 403 screen: ${adminPage.pattern} (staff)`, () => audit('staff', urlFor(adminPage.pattern, ids), `403 ${adminPage.pattern}`));
    }
  });
}
