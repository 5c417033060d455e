import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../bff/test-support/throwaway-postgres';
import { signIn, startBenchBff } from './bench-fixtures';
import { bar, type Figure } from './figures';
import { fmt, load } from './load';

const CONNECTIONS = 50;
const SECONDS = 3;
const P99_TARGET_MS = 50;
/** Lists read from services outside this machine (the sample pages) measure the internet, not the BFF. */
const OUTSIDE = /^\/api\/samples\//;

interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema?: { enum?: unknown[] };
}
interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  responses?: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
}
type OpenApiDocument = { paths: Record<string, Record<string, OpenApiOperation>> };

/**
 * Every list endpoint the BFF answers, read from its own OpenAPI document: a GET whose answer holds
 * `items`. A path id is the first row's (1), a required query parameter the value given for its name
 * or its first allowed one.
 */
function listUrls(document: OpenApiDocument, values: Record<string, string>): { urls: string[]; skipped: string[] } {
  const urls: string[] = [];
  const skipped: string[] = [];
  for (const [pattern, operations] of Object.entries(document.paths)) {
    const get = operations.get;
    const answer = get?.responses?.['200']?.content?.['application/json']?.schema;
    if (!get || !answer?.properties?.items || OUTSIDE.test(pattern)) continue;
    const query = new URLSearchParams();
    let usable = true;
    for (const parameter of get.parameters ?? []) {
      if (parameter.in !== 'query' || !parameter.required) continue;
      const first = values[parameter.name] ?? parameter.schema?.enum?.[0];
      if (first === undefined) usable = false;
      else query.set(parameter.name, String(first));
    }
    const url = pattern.replace(/\{[^}]+\}/g, '1') + (query.size > 0 ? `?${query}` : '');
    (usable ? urls : skipped).push(url);
  }
  return { urls, skipped };
}

async function measureEngine(label: string, databaseUrl: string, dir: string): Promise<{ allMet: boolean; figures: Figure[] }> {
  // A first start seeds the demo data of every feature: the lists as a new venue has them.
  const bff = await startBenchBff(databaseUrl, path.join(dir, `${label}-client`));
  let allMet = true;
  let slowest = { url: '', p99Ms: -1 };
  let above = 0;
  let measured = 0;
  try {
    const cookie = await signIn(bff.url);
    const document = (await (await fetch(`${bff.url}/api/openapi.json`)).json()) as OpenApiDocument;
    // One person's unlocks: a demo member's, who has a door history.
    const members = (await (await fetch(`${bff.url}/api/gym/users?pageSize=1`, { headers: { cookie } })).json()) as { items: Array<{ email: string }> };
    const { urls, skipped } = listUrls(document, { email: members.items[0]?.email ?? 'nobody@frontdesk.test' });
    console.log(`\nEvery list endpoint on ${label} (${CONNECTIONS} connections, ${SECONDS} s each, signed in as the admin; target p99 < ${P99_TARGET_MS} ms)`);
    console.log(`  ${'endpoint'.padEnd(60)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  verdict`);
    for (const url of urls) {
      const run = await load(`${bff.url}${url}`, { connections: CONNECTIONS, durationSeconds: SECONDS, headers: { cookie } });
      const statuses = Object.keys(run.answers.byStatus).join('/');
      const met = run.p99Ms < P99_TARGET_MS;
      allMet &&= met;
      measured++;
      if (!met) above++;
      if (run.p99Ms > slowest.p99Ms) slowest = { url, p99Ms: run.p99Ms };
      console.log(`  ${url.padEnd(60)} ${fmt(run.requestsPerSecond).padStart(7)} ${fmt(run.p50Ms, 1).padStart(7)} ${fmt(run.p99Ms).padStart(7)}  ${met ? 'OK' : 'ABOVE'} (${statuses})`);
    }
    if (skipped.length > 0) console.log(`  not measured (a required query parameter without a list of values): ${skipped.join(', ')}`);
  } finally {
    await bff.stop();
  }
  const figures = [
    bar(`${label}: slowest list p99 (${slowest.url})`, slowest.p99Ms, 'ms', `< ${P99_TARGET_MS} ms`, slowest.p99Ms < P99_TARGET_MS),
    bar(`${label}: list endpoints over the target, of ${measured}`, above, '', '0', above === 0, 0),
  ];
  return { allMet, figures };
}

/**
 * DESIGN "Quality bars", lists: every list endpoint p99 < 50 ms at 50 connections, on SQLite and on
 * PostgreSQL, on the path every request takes (no cache in front of any of them).
 */
export async function runListsBench(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-lists-bench-'));
  let postgres: ThrowawayPostgres | undefined;
  try {
    const sqliteRun = await measureEngine('SQLite', `file:${path.join(dir, 'lists.db')}`, dir);
    const sqlite = sqliteRun.allMet;
    postgres = await startThrowawayPostgres().catch((err: unknown) => {
      console.log(`\nPostgreSQL: not measured (${err instanceof Error ? err.message : String(err)}; Debian's postgresql package provides it)`);
      return undefined;
    });
    const pgRun = postgres ? await measureEngine('PostgreSQL', postgres.url, dir) : undefined;
    const pg = pgRun?.allMet;
    console.log(`\nLists: SQLite ${sqlite ? 'every p99 under target' : 'ABOVE target'}${pg === undefined ? '' : `, PostgreSQL ${pg ? 'every p99 under target' : 'ABOVE target'}`}`);
    return [...sqliteRun.figures, ...(pgRun?.figures ?? [])];
  } finally {
    await postgres?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
