import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSampleUpstreams } from '../bff/test-support/sample-upstreams';
import { pages, type Audience, type Page, type PageName } from '../pages/pages';
import { addAccounts, BENCH_ADMIN, signIn, startBenchBff, type BenchAccount } from './bench-fixtures';

/**
 * Every route of the route table (pages/pages.ts) as the browser benches open it (issue 48, DESIGN
 * §11: "a bar that names pages measures every route"): each page opened as the least-privileged
 * audience its `for` lets in (visitor < runner < staff < admin: a signed-in role's session cookie is
 * sent), a `:param` filled with a real id read from the running BFF's API as that role. Shared by
 * the Lighthouse bench and the size bench.
 */

/** Least privileged first: a route is opened as the first of these its `for` lets in. */
export const AUDIENCES: readonly Audience[] = ['visitor', 'runner', 'staff', 'admin'];
type Role = Exclude<Audience, 'visitor'>;
export const ACCOUNTS: Record<Role, BenchAccount & { name: string; role: Role }> = {
  runner: { email: 'runner@frontdesk.test', password: 'runner-password-123', name: 'Board Runner', role: 'runner' },
  staff: { email: 'staff@frontdesk.test', password: 'staff-password-123', name: 'Desk Staff', role: 'staff' },
  // The BFF creates the bench admin itself (ADMIN_EMAIL, ADMIN_PASSWORD).
  admin: { ...BENCH_ADMIN, name: 'Bench Admin', role: 'admin' },
};

/** Pages slow or failing on purpose: a bench that judges how fast a page is leaves them out. */
export const BY_DESIGN: Partial<Record<PageName, string>> = {
  pending: 'waits 5 s on purpose',
  error: 'an error screen on purpose',
  bad: 'an error screen on purpose (its read fails with 500)',
};

/** The search a person opens a page with (the diner's menu from the table's QR code). */
export const SEARCH: Partial<Record<PageName, string>> = { ptDinerMenu: '?table=12' };

/**
 * Where a real id for a `:param` comes from: a fixed one (the sample APIs' own ids), or the first
 * item of a list read from the running BFF as the role that opens the page (`field` of
 * `items[0]`, or of `[0]` for a list answered as a bare array). A page with a `:param` missing here
 * stops the bench: every route is opened at a real address.
 */
type IdSource = { fixed: string } | { read: string; field: string };
const fixed = (id: string): IdSource => ({ fixed: id });
const firstOf = (read: string, field = 'id'): IdSource => ({ read, field });

const MEMBER = firstOf('/api/gym/users?pageSize=1');
const POST = firstOf('/api/samples/posts');
const STALL = firstOf('/api/pt/stalls?pageSize=1');
export const REAL_IDS: Partial<Record<PageName, Record<string, IdSource>>> = {
  arco: { id: fixed('1') },
  gymOwner: { id: firstOf('/api/gym/owners?pageSize=1') },
  post: { postId: POST },
  postDeep: { postId: POST },
  conversation: { conversationId: firstOf('/api/conversations?pageSize=1') },
  gymMember: { id: MEMBER },
  gymMemberUnlocks: { id: MEMBER },
  gymMemberLinks: { id: MEMBER },
  kisiUser: { user_id: firstOf('/api/kisi/users?limit=1') },
  ptStall: { id: STALL },
  ptKitchen: { stallId: STALL },
  // Pieces and parts by number, as their pages' own links give them (an id moves to the number).
  piece: { id: firstOf('/api/rest/pieces?pageSize=1', 'number') },
  part: { id: firstOf('/api/rest/parts?pageSize=1', 'number') },
  pokemon: { idOrName: fixed('1') },
};

/** One route as a bench opens it: its page, who opens it, and the address with real ids. */
export type Route = { name: PageName; pattern: string; as: Audience; address: string; byDesign?: string };

/** The session cookie (`sid=…`) each audience sends; none for a visitor. */
export type Cookies = Record<Audience, string | undefined>;

export const openerOf = (page: Page): Audience => {
  const as = AUDIENCES.find((audience) => page.for.includes(audience));
  if (!as) throw new Error(`a page is for nobody the bench can sign in as: ${page.path} (for ${page.for.join(', ')})`);
  return as;
};

/** Every route of the table with the ids it needs, read from the running BFF as the role that opens it (`bench` names the bench in errors). */
export async function routesOf(baseUrl: string, cookies: Cookies, bench = 'lighthouse'): Promise<Route[]> {
  const known = new Map<string, string>();
  const idFrom = async (source: IdSource, as: Audience, what: string): Promise<string> => {
    if ('fixed' in source) return source.fixed;
    const key = `${as} ${source.read} ${source.field}`;
    const cached = known.get(key);
    if (cached !== undefined) return cached;
    const cookie = cookies[as];
    const response = await fetch(baseUrl + source.read, { headers: { Accept: 'application/json', ...(cookie && { Cookie: cookie }) } });
    if (!response.ok) throw new Error(`${bench}: ${what}: GET ${source.read} as ${as} answered ${response.status}`);
    const body = (await response.json()) as unknown;
    const items = Array.isArray(body) ? body : (body as { items?: unknown })?.items;
    const first = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined) : undefined;
    const id = first?.[source.field];
    if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`${bench}: ${what}: GET ${source.read} as ${as} gave no item with a ${source.field}`);
    known.set(key, String(id));
    return String(id);
  };

  const routes: Route[] = [];
  for (const [name, page] of Object.entries(pages) as Array<[PageName, Page]>) {
    const as = openerOf(page);
    const segments = await Promise.all(
      page.path.split('/').map(async (segment) => {
        if (!segment.startsWith(':')) return segment;
        const param = segment.slice(1);
        const source = REAL_IDS[name]?.[param];
        if (!source) throw new Error(`${bench}: ${page.path} (${name}) needs a real ${param}: say where it comes from in REAL_IDS (bench/route-walk.ts)`);
        return encodeURIComponent(await idFrom(source, as, `${page.path} :${param}`));
      }),
    );
    routes.push({ name, pattern: page.path, as, address: segments.join('/') + (SEARCH[name] ?? ''), ...(BY_DESIGN[name] && { byDesign: BY_DESIGN[name] }) });
  }
  return routes;
}

/** The BFF a route walk runs against, with a session for every role and every route of the table. */
export interface RouteWalk {
  url: string;
  cookies: Cookies;
  routes: Route[];
  stop: () => Promise<void>;
}

/**
 * Starts the real BFF (production mode) serving `staticDir`, on a new database in a temporary
 * folder with the runner and staff accounts added, the sample pages' upstreams as local fakes (the
 * bench reaches nothing outside this machine), signs in as every role and reads every route's
 * address. `stop()` ends it all and removes the folder.
 */
export async function startRouteWalk(staticDir: string, bench = 'lighthouse'): Promise<RouteWalk> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `frontdesk-${bench}-`));
  const databaseUrl = `file:${path.join(dir, 'bench.db')}`;
  await addAccounts(databaseUrl, [ACCOUNTS.runner, ACCOUNTS.staff]);
  const samples = await startSampleUpstreams();
  let bff: Awaited<ReturnType<typeof startBenchBff>> | undefined;
  const stop = async () => {
    await bff?.stop();
    await samples.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    bff = await startBenchBff(databaseUrl, dir, { STATIC_DIR: staticDir, UPLOADS_DIR: path.join(dir, 'uploads'), SAMPLES_IMAGE_DIR: path.join(dir, 'sample-images'), ...samples.env });
    const cookies: Cookies = {
      visitor: undefined,
      runner: await signIn(bff.url, ACCOUNTS.runner),
      staff: await signIn(bff.url, ACCOUNTS.staff),
      admin: await signIn(bff.url, ACCOUNTS.admin),
    };
    return { url: bff.url, cookies, routes: await routesOf(bff.url, cookies, bench), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
