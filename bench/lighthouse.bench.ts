import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { bar, info, type Figure } from './figures';
import { fmt } from './load';
import { startRouteWalk, type Route } from './route-walk';

/**
 * Issue 48, DESIGN §11 "Every page on a phone": Lighthouse 12 (its default profile: a mobile phone
 * on simulated slow 4G with a 4× slower CPU) on the built app served by the real BFF in production
 * mode, with the system Chromium, on **every route of the route table** (pages/pages.ts), each opened
 * as the least-privileged audience its `for` lets in (visitor < runner < staff < admin: a signed-in
 * role's session cookie is sent), a `:param` filled with a real id read from the running BFF's API
 * as that role. Each route is audited RUNS times, each run in a new browser profile (nothing cached:
 * a first visit), and each figure is the median of its runs.
 * Targets: every route performance ≥ 90, LCP ≤ 2.5 s, TBT ≤ 200 ms, CLS ≤ 0.02, accessibility and
 * best practices 100; the median route's performance ≥ 95. Pages that are slow or failing on purpose
 * (BY_DESIGN) are audited and shown, but left out of the pass/fail and the median.
 * Beside the figures: the reads each route's HTML names (`<link rel="preload" as="fetch">` other than
 * who is signed in), fetched with the same session; a route naming none is flagged in the report
 * (not a failure: some pages read nothing).
 *
 * LIGHTHOUSE_RUNS=1 audits each route once; LIGHTHOUSE_ONLY=<text> audits only the routes whose
 * pattern, address or page name contains it (`LIGHTHOUSE_ONLY=/pt`).
 */
const RUNS = runsFromEnv(process.env.LIGHTHOUSE_RUNS);
const ONLY = process.env.LIGHTHOUSE_ONLY?.trim() || undefined;
const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Set LIGHTHOUSE_REPORTS to a folder to keep every run's full report (JSON, opens in the Lighthouse viewer). */
const REPORTS_DIR = process.env.LIGHTHOUSE_REPORTS;

const TARGET = { performance: 90, medianPerformance: 95, lcpMs: 2500, tbtMs: 200, cls: 0.02, category: 100 };
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;

/* The routes, who opens each and with which ids: bench/route-walk.ts (shared with the size bench). */

type Run = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
  /**
   * Lighthouse's own gauge of the machine's CPU (`environment.benchmarkIndex`: higher is faster). Its
   * CPU slowdown is a fixed 4×, so the blocking time follows the machine: beside the figures, it
   * tells a slow machine from slow code.
   */
  benchmarkIndex: number;
  /** What kept a category under 100, for the printout. */
  failing: string[];
};

type Result = { route: Route; run: Omit<Run, 'benchmarkIndex' | 'failing'>; failing: string[]; firstReads: string[]; met: Record<'performance' | 'lcp' | 'tbt' | 'cls' | 'others', boolean>; passed: boolean };

function runsFromEnv(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3;
  const runs = Number(value);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`LIGHTHOUSE_RUNS must be a whole number from 1 (got "${value}")`);
  return runs;
}

/** The middle run of an odd number; of an even number the upper middle one (a run that happened). */
const medianRun = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
/** The median of the routes' figures: of an even number, halfway between the middle two. */
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The reads the route's HTML names (`<link rel="preload" as="fetch" href>`), who is signed in aside, in order. */
async function firstReadsOf(url: string, cookie: string | undefined): Promise<string[]> {
  const response = await fetch(url, { headers: { Accept: 'text/html', ...(cookie && { Cookie: cookie }) } });
  const html = await response.text();
  return [...html.matchAll(/<link\b[^>]*>/gi)]
    .map(([tag]) => tag)
    .filter((tag) => /\brel\s*=\s*"preload"/i.test(tag) && /\bas\s*=\s*"fetch"/i.test(tag))
    .map((tag) => /\bhref\s*=\s*"([^"]*)"/i.exec(tag)?.[1]?.replace(/&quot;/g, '"').replace(/&amp;/g, '&') ?? '')
    .filter((href) => href !== '' && href !== '/api/auth/session');
}

/**
 * One Lighthouse run of `url` in a fresh Chromium profile. Lighthouse now and then fails to record
 * the trace (NO_NAVSTART, NO_FCP on a busy machine): such a run is taken again, up to twice.
 */
async function audit(url: string, cookie: string | undefined): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await auditOnce(url, cookie);
    } catch (error) {
      if (attempt >= 3 || !(error instanceof LighthouseRunError)) throw error;
      console.log(`lighthouse: ${url}: ${error.message}; running it again`);
    }
  }
}

class LighthouseRunError extends Error {}

async function auditOnce(url: string, cookie: string | undefined): Promise<Run> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      ...(cookie && { extraHeaders: { Cookie: cookie } }),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    if (REPORTS_DIR) {
      fs.mkdirSync(REPORTS_DIR, { recursive: true });
      const name = `${new URL(url).pathname.replace(/\W+/g, '_') || 'home'}-${Date.now()}.json`;
      fs.writeFileSync(path.join(REPORTS_DIR, name), typeof result.report === 'string' ? result.report : JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new LighthouseRunError(`Lighthouse could not audit ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const score = (name: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[name]?.score ?? 0) * 100);
    const value = (audit: string) => lhr.audits[audit]?.numericValue ?? NaN;
    const failing = CATEGORIES.flatMap((name) =>
      (lhr.categories[name]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && name !== 'performance')
        .map((ref) => lhr.audits[ref.id]!)
        .filter((a) => a.score !== null && a.score < 1)
        .map((a) => `${name}: ${a.id}`),
    );
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      fcpMs: value('first-contentful-paint'),
      lcpMs: value('largest-contentful-paint'),
      tbtMs: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      bytes: value('total-byte-weight'),
      benchmarkIndex: lhr.environment.benchmarkIndex,
      failing,
    };
  } finally {
    chrome.kill();
  }
}

/** The route as the report names it: its address, and who opened it. */
const routeName = (route: Route) => `${route.address} (${route.as})`;

export async function runLighthouseBench(): Promise<Figure[]> {
  if (!fs.existsSync('dist/client/index.html')) execSync('npm run build', { stdio: 'inherit' });
  // The sample pages' upstreams are local fakes: the bench reaches nothing outside this machine.
  const bff = await startRouteWalk('dist/client', 'lighthouse');
  const results: Result[] = [];
  const benchmarkIndexes: number[] = [];
  const started = performance.now();
  let audited: Route[] = [];
  try {
    const { cookies, routes } = bff;
    audited = ONLY ? routes.filter((r) => [r.pattern, r.address, r.name].some((text) => text.includes(ONLY))) : routes;
    if (audited.length === 0) throw new Error(`lighthouse: LIGHTHOUSE_ONLY=${ONLY} matches none of the ${routes.length} routes`);
    console.log(
      `lighthouse: ${audited.length} of the ${routes.length} routes${ONLY ? ` (LIGHTHOUSE_ONLY=${ONLY})` : ''}, ${RUNS} run${RUNS === 1 ? '' : 's'} each, mobile (simulated slow 4G, 4× CPU slowdown)`,
    );
    for (const route of audited) {
      const url = bff.url + route.address;
      const cookie = cookies[route.as];
      const firstReads = await firstReadsOf(url, cookie);
      const runs: Run[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await audit(url, cookie));
      benchmarkIndexes.push(...runs.map((r) => r.benchmarkIndex));
      const m = (pick: (run: Run) => number) => medianRun(runs.map(pick));
      const run = {
        performance: m((r) => r.performance),
        accessibility: m((r) => r.accessibility),
        bestPractices: m((r) => r.bestPractices),
        fcpMs: m((r) => r.fcpMs),
        lcpMs: m((r) => r.lcpMs),
        tbtMs: m((r) => r.tbtMs),
        cls: m((r) => r.cls),
        bytes: m((r) => r.bytes),
      };
      const met = {
        performance: run.performance >= TARGET.performance,
        lcp: run.lcpMs <= TARGET.lcpMs,
        tbt: run.tbtMs <= TARGET.tbtMs,
        cls: run.cls <= TARGET.cls,
        others: Math.min(run.accessibility, run.bestPractices) >= TARGET.category,
      };
      const result: Result = { route, run, failing: [...new Set(runs.flatMap((r) => r.failing))], firstReads, met, passed: Object.values(met).every(Boolean) };
      results.push(result);
      const row = rowOf(result);
      console.log(`lighthouse: ${row.join('  ')}${result.failing.length ? `  (below 100: ${result.failing.join(', ')})` : ''}`);
    }
  } finally {
    await bff.stop();
  }
  const seconds = (performance.now() - started) / 1000;

  const judged = results.filter((r) => !r.route.byDesign);
  const passing = judged.filter((r) => r.passed);
  const medianPerformance = judged.length ? median(judged.map((r) => r.run.performance)) : NaN;
  const readingNothing = results.filter((r) => r.firstReads.length === 0);
  const cpuIndex = medianRun(benchmarkIndexes);

  printTable(results);
  console.log(
    `\nlighthouse: first reads named in each route's HTML (<link rel="preload" as="fetch">, /api/auth/session aside):\n${results
      .map((r) => `  ${routeName(r.route).padEnd(Math.max(...results.map((x) => routeName(x.route).length)))}  ${r.firstReads.length ? r.firstReads.join(', ') : 'NONE'}`)
      .join('\n')}`,
  );
  console.log(`\nlighthouse: the machine's CPU by Lighthouse's benchmark index (higher is faster): median ${fmt(cpuIndex, 0)}, ${fmt(Math.min(...benchmarkIndexes), 0)}–${fmt(Math.max(...benchmarkIndexes), 0)} over the ${benchmarkIndexes.length} runs`);
  console.log(`lighthouse: ${fmt(seconds, 0)} s for ${results.length} route${results.length === 1 ? '' : 's'} × ${RUNS} run${RUNS === 1 ? '' : 's'}: ${fmt(seconds / results.length, 1)} s a route, ${fmt(seconds / results.length / RUNS, 1)} s a run`);
  const medianText = judged.length ? `${fmt(medianPerformance, 1)} (target ≥ ${TARGET.medianPerformance}: ${medianPerformance >= TARGET.medianPerformance ? 'met' : 'MISSED'})` : 'none (no route judged)';
  console.log(
    `lighthouse: ${passing.length} / ${judged.length} routes meet every target` +
      `${results.length > judged.length ? ` (${results.length - judged.length} by design left out)` : ''}; ` +
      `median route performance ${medianText}; ` +
      `${readingNothing.length} route${readingNothing.length === 1 ? ' names' : 's name'} no first read in ${readingNothing.length === 1 ? 'its' : 'their'} HTML` +
      `${ONLY ? `; only the routes matching LIGHTHOUSE_ONLY=${ONLY}` : ''}`,
  );

  // A partial run says so in every summary figure's name: its figures are not the bar's.
  const partial = [ONLY && `only the ${results.length} route${results.length === 1 ? '' : 's'} matching "${ONLY}"`, RUNS !== 3 && `${RUNS} run${RUNS === 1 ? '' : 's'} each`].filter(Boolean);
  const scope = partial.length ? ` (${partial.join(', ')})` : '';
  const byDesign = results.filter((r) => r.route.byDesign).map((r) => `${r.route.address}: ${r.route.byDesign}`);
  const figures: Figure[] = [
    bar(
      `routes meeting every target${scope}${byDesign.length ? `; left out by design: ${byDesign.join('; ')}` : ''}`,
      passing.length,
      '',
      `${judged.length} of ${judged.length}`,
      passing.length === judged.length,
      0,
    ),
    ...(judged.length ? [bar(`the median route's performance${scope}`, medianPerformance, '', `≥ ${TARGET.medianPerformance}`, medianPerformance >= TARGET.medianPerformance, 1)] : []),
    info(`routes whose HTML names no first read${scope}${readingNothing.length ? `: ${readingNothing.map((r) => r.route.address).join(', ')}` : ''}`, readingNothing.length, '', 0),
  ];
  for (const { route, run, met, firstReads } of results) {
    const name = `\`${route.address}\` (${route.as}${route.byDesign ? ', by design' : ''})`;
    // A page slow or failing by design is shown without a target: it counts in no pass/fail.
    const figure = (what: string, value: number, unit: string, target: string, ok: boolean, digits: number) =>
      route.byDesign ? info(`${name}: ${what}`, value, unit, digits) : bar(`${name}: ${what}`, value, unit, target, ok, digits);
    figures.push(
      figure('performance', run.performance, '', `≥ ${TARGET.performance}`, met.performance, 0),
      figure('largest contentful paint', run.lcpMs / 1000, 's', `≤ ${TARGET.lcpMs / 1000} s`, met.lcp, 2),
      figure('total blocking time', run.tbtMs, 'ms', `≤ ${TARGET.tbtMs} ms`, met.tbt, 0),
      figure('cumulative layout shift', run.cls, '', `≤ ${TARGET.cls}`, met.cls, 3),
      figure('accessibility / best practices', Math.min(run.accessibility, run.bestPractices), '', `${TARGET.category} each`, met.others, 0),
      info(`${name}: first reads named in its HTML: ${firstReads.length ? firstReads.map((href) => `\`${href}\``).join(', ') : 'none'}`, firstReads.length, '', 0),
    );
  }
  figures.push(info(`the machine's CPU, Lighthouse's benchmark index (median of ${benchmarkIndexes.length} runs; higher is faster)`, cpuIndex, '', 0));
  return figures;
}

const TABLE_HEAD = ['route', 'as', 'perf', 'LCP', 'TBT', 'CLS', 'a11y', 'best', 'FCP', 'bytes', 'reads', ''];

function rowOf({ route, run, firstReads, passed }: Result): string[] {
  return [
    route.address,
    route.as,
    String(run.performance),
    `${fmt(run.lcpMs / 1000, 2)} s`,
    `${fmt(run.tbtMs, 0)} ms`,
    fmt(run.cls, 3),
    String(run.accessibility),
    String(run.bestPractices),
    `${fmt(run.fcpMs / 1000, 2)} s`,
    `${fmt(run.bytes / 1000, 0)} kB`,
    firstReads.length ? String(firstReads.length) : 'none',
    route.byDesign ? 'by design' : passed ? 'OK' : 'MISSED',
  ];
}

function printTable(results: Result[]) {
  const rows = results.map(rowOf);
  const widths = TABLE_HEAD.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i <= 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(
    `\nlighthouse: median of ${RUNS} run${RUNS === 1 ? '' : 's'} per route (mobile, simulated slow 4G, 4× CPU slowdown); targets: perf ≥ ${TARGET.performance}, ` +
      `LCP ≤ ${TARGET.lcpMs / 1000} s, TBT ≤ ${TARGET.tbtMs} ms, CLS ≤ ${TARGET.cls}, accessibility and best practices ${TARGET.category}; the median route's perf ≥ ${TARGET.medianPerformance}`,
  );
  console.log(line(TABLE_HEAD));
  for (const row of rows) console.log(line(row));
}

if (process.argv[1]?.endsWith('lighthouse.bench.ts')) await runLighthouseBench();
