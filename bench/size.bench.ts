import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Request } from 'playwright-core';
// Vite's own bundler (a dependency of vite): the floor's libraries are bundled and minified as the app's build does.
import { build as rolldown } from 'rolldown';
import { bar, info, type Figure } from './figures';
import { startRouteWalk, type Route } from './route-walk';

/**
 * Issue 48, DESIGN §11 "JavaScript": the gzip size of every script the browser fetches for **every
 * route of the route table** (pages/pages.ts) until the network is idle (the entry, what the route's
 * HTML modulepreloads, the layout's and the screen's lazy chunks, whatever else they import), read
 * by the system Chromium from the built app on the real BFF, each route opened in a new browser
 * context (nothing cached: a first visit) as the least-privileged role its page lets in, with real
 * ids (bench/route-walk.ts, as the Lighthouse bench opens them). Against the floor of react +
 * react-dom + react-router + swr + valibot alone (FLOOR_BYTES, about 104 kB gzip). Target: every
 * route ≤ 1.25 × the floor. Routes slow or failing on purpose (/pending, /error, /bad) count too:
 * their JavaScript is fetched like any other's.
 * Sizes are gzip level 9 of the built files, in kB of 1000 bytes (as Vite prints them).
 * Beside the constant the bench recomputes the floor from the installed packages: each library
 * whole as shipped (its production build, every export), bundled and minified by rolldown, gzip -9.
 *
 * SIZE_ONLY=<text> measures only the routes whose pattern, address or page name contains it;
 * SIZE_JSON=<file> writes every route's scripts and their gzip sizes there (for an analysis).
 */
export const FLOOR_BYTES = 104_000;
export const TARGET_RATIO = 1.25;
const DIST = 'dist/client';
const ONLY = process.env.SIZE_ONLY?.trim() || undefined;
const JSON_FILE = process.env.SIZE_JSON?.trim() || undefined;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The network is idle when no request (an event stream aside) has been open or started for this long. */
const IDLE_MS = 500;
/** A route that never goes idle stops the bench after this long. */
const ROUTE_TIMEOUT_MS = 30_000;

const gzipped = new Map<string, number>();
const gz = (file: string) => {
  let bytes = gzipped.get(file);
  if (bytes === undefined) gzipped.set(file, (bytes = gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length));
  return bytes;
};
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

type Measured = { route: Route; files: string[]; bytes: number; ratio: number; landed: string };

/**
 * The built scripts (`assets/x.js`) Chromium fetches for `route` in a new context until the network
 * is idle: IDLE_MS without a request open or starting, after the load event. An event stream (the
 * live pages' EventSource) stays open for the page's life and does not count as activity. Also
 * answers where the page landed (a guard's redirect would measure another page).
 */
async function scriptsFetchedFor(browser: Browser, baseUrl: string, route: Route, cookie: string | undefined): Promise<{ files: string[]; landed: string }> {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    if (cookie) {
      const [name, ...value] = cookie.split('=');
      await context.addCookies([{ name: name!, value: value.join('='), url: baseUrl }]);
    }
    const page = await context.newPage();
    const scripts = new Set<string>();
    const open = new Set<Request>();
    let lastActivity = performance.now();
    const counts = (request: Request) => request.resourceType() !== 'eventsource';
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.js')) scripts.add(pathname.slice(1));
      if (!counts(request)) return;
      open.add(request);
      lastActivity = performance.now();
    });
    const settle = (request: Request) => {
      if (open.delete(request)) lastActivity = performance.now();
    };
    page.on('requestfinished', settle);
    page.on('requestfailed', settle);
    const started = performance.now();
    await page.goto(route.address, { waitUntil: 'load', timeout: ROUTE_TIMEOUT_MS });
    while (open.size > 0 || performance.now() - lastActivity < IDLE_MS) {
      if (performance.now() - started > ROUTE_TIMEOUT_MS) {
        throw new Error(`size: ${route.address} (${route.as}) never went idle in ${ROUTE_TIMEOUT_MS / 1000} s; still open: ${[...open].map((r) => r.url()).join(', ')}`);
      }
      await page.waitForTimeout(50);
    }
    const landed = new URL(page.url());
    return { files: [...scripts], landed: landed.pathname + landed.search };
  } finally {
    await context.close();
  }
}

/**
 * The floor's libraries, each whole as shipped: the production build of every entry point a browser
 * app imports (react: its index and JSX runtime; react-dom: its index and client, with the
 * scheduler it requires; react-router: its production dist, index and DOM export, with the cookie
 * parsers it imports; swr: its index, with the useSyncExternalStore shim and dequal it imports;
 * valibot: its index). Every export kept (nothing tree-shaken away), the other floor libraries left
 * out, minified by rolldown (as Vite builds the app), gzip -9.
 */
const FLOOR_LIBRARIES: Record<string, string[]> = {
  react: ['react', 'react/jsx-runtime'],
  'react-dom': ['react-dom', 'react-dom/client'],
  'react-router': ['./node_modules/react-router/dist/production/index.mjs', './node_modules/react-router/dist/production/dom-export.mjs'],
  swr: ['swr'],
  valibot: ['valibot'],
};

async function floorOfInstalledLibraries(): Promise<Array<{ library: string; version: string; minified: number; bytes: number }>> {
  const libraries = Object.keys(FLOOR_LIBRARIES);
  const floor = [];
  for (const [library, entries] of Object.entries(FLOOR_LIBRARIES)) {
    const entry = '\0floor-entry';
    const code = entries.map((specifier, i) => `export * as entry${i} from ${JSON.stringify(specifier)};`).join('\n');
    const { output } = await rolldown({
      input: entry,
      write: false,
      platform: 'browser',
      logLevel: 'silent',
      // Another floor library is counted once, under its own name.
      external: (id) => libraries.some((other) => other !== library && (id === other || id.startsWith(`${other}/`))),
      transform: { define: { 'process.env.NODE_ENV': '"production"' } },
      plugins: [{ name: 'floor-entry', resolveId: (id) => (id === entry ? id : null), load: (id) => (id === entry ? code : null) }],
      output: { format: 'esm', minify: true, codeSplitting: false },
    });
    const js = output.flatMap((o) => (o.type === 'chunk' ? [o.code] : [])).join('\n');
    const { version } = JSON.parse(fs.readFileSync(path.join('node_modules', library, 'package.json'), 'utf8')) as { version: string };
    floor.push({ library, version, minified: Buffer.byteLength(js), bytes: gzipSync(js, { level: 9 }).length });
  }
  return floor;
}

const HEAD = ['route', 'as', 'files', 'gzip', 'ratio', ''];

export async function runSizeBench(): Promise<Figure[]> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) execSync('npm run build', { stdio: 'inherit' });
  const walk = await startRouteWalk(DIST, 'size');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  const measured: Measured[] = [];
  let routes: Route[] = [];
  try {
    routes = ONLY ? walk.routes.filter((r) => [r.pattern, r.address, r.name].some((text) => text.includes(ONLY))) : walk.routes;
    if (routes.length === 0) throw new Error(`size: SIZE_ONLY=${ONLY} matches none of the ${walk.routes.length} routes`);
    console.log(`size: JavaScript the browser fetches until idle for ${routes.length} of the ${walk.routes.length} routes${ONLY ? ` (SIZE_ONLY=${ONLY})` : ''}, each in a new context`);
    for (const route of routes) {
      const { files, landed } = await scriptsFetchedFor(browser, walk.url, route, walk.cookies[route.as]);
      const missing = files.filter((f) => !fs.existsSync(path.join(DIST, f)));
      if (missing.length > 0) throw new Error(`size: ${route.address}: the browser fetched scripts the build does not have: ${missing.join(', ')}`);
      const bytes = files.reduce((sum, f) => sum + gz(f), 0);
      measured.push({ route, files: files.sort((a, b) => gz(b) - gz(a)), bytes, ratio: bytes / FLOOR_BYTES, landed });
    }
  } finally {
    await browser.close();
    await walk.stop();
  }

  const bySize = [...measured].sort((a, b) => b.bytes - a.bytes);
  if (JSON_FILE) {
    const routesOut = bySize.map((m) => ({ ...m.route, landed: m.landed, bytes: m.bytes, ratio: m.ratio, files: Object.fromEntries(m.files.map((f) => [f, gz(f)])) }));
    fs.writeFileSync(JSON_FILE, JSON.stringify({ floorBytes: FLOOR_BYTES, target: TARGET_RATIO, routes: routesOut }, null, 1));
  }
  const rows = bySize.map((m) => [
    m.route.address,
    m.route.as,
    String(m.files.length),
    kb(m.bytes),
    m.ratio.toFixed(3),
    `${m.ratio <= TARGET_RATIO ? 'OK' : 'OVER'}${m.landed !== m.route.address ? `  (landed on ${m.landed})` : ''}${m.route.byDesign ? `  (${m.route.byDesign})` : ''}`,
  ]);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i <= 1 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  console.log(`\nsize: gzip -9 of the scripts fetched until idle, largest first; ratio to the floor (${kb(FLOOR_BYTES)}), target ≤ ${TARGET_RATIO}`);
  console.log(line(HEAD));
  for (const row of rows) console.log(line(row));

  const worst = bySize[0]!;
  const over = bySize.filter((m) => m.ratio > TARGET_RATIO);
  const redirected = measured.filter((m) => m.landed !== m.route.address);
  console.log(`\nsize: the worst route: ${worst.route.address} (${worst.route.as}), ${kb(worst.bytes)} in ${worst.files.length} files, ratio ${worst.ratio.toFixed(3)}:`);
  for (const f of worst.files) console.log(`  ${kb(gz(f)).padStart(9)}  ${f}`);
  if (redirected.length) console.log(`size: ${redirected.length} route${redirected.length === 1 ? '' : 's'} landed elsewhere (a guard's redirect?): ${redirected.map((m) => `${m.route.address} → ${m.landed}`).join(', ')}`);
  console.log(
    `size: ${over.length === 0 ? `every route is ≤ ${TARGET_RATIO} × the floor` : `${over.length} of ${measured.length} routes are over ${TARGET_RATIO} × the floor`}` +
      ` (${measured.length - over.length} / ${measured.length} OK${ONLY ? `, only the routes matching SIZE_ONLY=${ONLY}` : ''})`,
  );

  const floor = await floorOfInstalledLibraries();
  const recomputed = floor.reduce((sum, l) => sum + l.bytes, 0);
  console.log(`\nsize: the floor, recomputed from the installed packages (each library whole as shipped: production build, every export, minified by rolldown, gzip -9):`);
  for (const l of floor) console.log(`  ${kb(l.bytes).padStart(9)}  ${l.library} ${l.version} (${kb(l.minified)} minified)`);
  console.log(
    `size: floor recomputed ${kb(recomputed)} beside FLOOR_BYTES ${kb(FLOOR_BYTES)} (${recomputed >= FLOOR_BYTES ? '+' : ''}${kb(recomputed - FLOOR_BYTES)}); ` +
      `the ratios above are to FLOOR_BYTES (the constant); the worst route would be ${(worst.bytes / recomputed).toFixed(3)} × the recomputed floor`,
  );

  const scope = ONLY ? ` (only the ${measured.length} route${measured.length === 1 ? '' : 's'} matching "${ONLY}")` : '';
  return [
    bar(`routes whose JavaScript until idle is ≤ ${TARGET_RATIO} × the floor${scope}`, measured.length - over.length, '', `${measured.length} of ${measured.length}`, over.length === 0, 0),
    bar(`the worst route, \`${worst.route.address}\` (${worst.route.as}): ${kb(worst.bytes)} gzip in ${worst.files.length} files, ratio to the floor (${kb(FLOOR_BYTES)})${scope}`, worst.ratio, '×', `≤ ${TARGET_RATIO}`, worst.ratio <= TARGET_RATIO, 3),
    info(`the floor recomputed from the installed libraries, whole as shipped (${floor.map((l) => `${l.library} ${kb(l.bytes)}`).join(', ')}), gzip`, recomputed / 1000, 'kB', 1),
    ...bySize.map((m) =>
      bar(`\`${m.route.address}\` (${m.route.as}): ${kb(m.bytes)} gzip in ${m.files.length} files, ratio to the floor`, m.ratio, '×', `≤ ${TARGET_RATIO}`, m.ratio <= TARGET_RATIO, 3),
    ),
  ];
}

if (process.argv[1]?.endsWith('size.bench.ts')) await runSizeBench();
