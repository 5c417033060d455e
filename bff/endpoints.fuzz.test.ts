import crypto from 'node:crypto';
import querystring from 'node:querystring';
import fc from 'fast-check';
import * as v from 'valibot';
import { ACCESS_MATRIX, CALLERS, PROTOCOL_ACCESS_MATRIX, type Caller, type EndpointKey, type ProtocolKey } from './test-support/access-matrix';
import { UPLOAD_METADATA_KEYS } from './contracts/uploads.contract';
import { GUEST_COOKIE } from './contracts/conversations.contract';
import { describeEndpoint, type Endpoint } from './contracts/endpoint.contract';
import { KISI_PROXY_PREFIX, KisiErrorSchema, KisiValidationErrorsSchema } from './contracts/kisi.contract';
import { signBody } from './kisi/signature';
import { changesBetween, snapshotOf, tablesOf, type DatabaseSnapshot } from './test-support/database-snapshot';
import { requestFor, type FuzzRequest, type Hints } from './test-support/fuzz-inputs';
import { signInPerson } from './test-support/live-client';
import { problemOf, rawCall, type RawAnswer } from './test-support/raw-call';
import { startRebrickableMedia, type RebrickableMedia } from './test-support/rebrickable-media';
import { startSampleUpstreams, type SampleUpstreams } from './test-support/sample-upstreams';
import { createTestContext, type TestContext } from './test-support/test-app';

/**
 * Generated bad input at every endpoint of the contracts (DESIGN §10 "Fuzz and auth matrix"): for each,
 * fast-check builds requests from its params, query and body schemas — plausible values and their
 * edges, wrong types, odd text, junk — sent with malformed bodies, wrong types and encodings and odd
 * headers, as a caller the endpoint admits (so the input is validated, not just refused). Every answer:
 * - is never a 5xx (but the 500 `GET /api/bad` exists to give, and Kisi's own 5xx that its contract
 *   names, passed through: a door that is offline is Kisi's 503);
 * - when a 4xx, is a problem document (Kisi's own errors, passed through its proxy, excepted);
 * - when the request broke its schema on a clean wire, is a 400 naming each broken field;
 * - when refused (4xx), wrote nothing: every table (the app's, and the Kisi emulator's in its own
 *   store) is the same before and after it, but `rate_limit_counters` (limits count attempts,
 *   refused ones too: that is their job), `rate_window_starts` (Kisi's outgoing request window,
 *   which every proxied request takes a start in) and a session's `last_seen_at` (its read writes it).
 * After each endpoint's run the app still answers `GET /api`. One line at the end gives the seed
 * (`FUZZ_SEED=… npx jest bff/endpoints.fuzz.test.ts` repeats a run) and the counts.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_317);
/** Requests per endpoint: a few in the everyday tier, the full run in the system tier (its Jest project sets `FUZZ_RUNS`). */
const RUNS = Number(process.env.FUZZ_RUNS ?? (globalThis as { FUZZ_RUNS?: number }).FUZZ_RUNS ?? 12);
const NO_LIMIT = 1_000_000;
const EXEMPT_TABLES = ['rate_limit_counters', 'rate_window_starts'];
/** A session's read (any request's) writes when it was last seen, at most once a minute: not the request's write. */
const EXEMPT_COLUMNS = { sessions: ['last_seen_at'] };
/**
 * Refusals that are events themselves: Kisi records a door that would not open (locked down: 409,
 * offline: 503) in its event log and sends its webhook (`success: false`), which the BFF stores and
 * announces, as it would from the real Kisi.
 */
const RECORDED_REFUSALS: Partial<Record<EndpointKey, string[]>> = {
  // The stored event is counted into the inbox's filter choices and people in its own transaction (migration 031);
  // the press is recorded before it goes and waits for its refused event, credited to who pressed it (decision 0103).
  'POST /api/kisi/locks/:id/unlock': ['kisi_emu_events', 'kisi_events', 'kisi_event_types', 'kisi_event_doors', 'kisi_event_people', 'live_events', 'remote_unlock_requests'],
};
/** JSON_BODY_LIMIT of bff/app.ts. */
const JSON_LIMIT_BYTES = 100 * 1024;

let fakes: SampleUpstreams;
let media: RebrickableMedia;
let ctx: TestContext;
let base: string;
let endpoints: Map<string, Endpoint>;
/** Every table the requests may write: the app's database and the Kisi emulator's own store. */
let snapshot: () => Promise<DatabaseSnapshot>;
let hints: Hints;
const cookies: Partial<Record<Caller, string>> = {};
let guestCookie = '';
let signIns = 0;

const counts = { requests: 0, byEndpoint: new Map<string, number>(), byStatus: new Map<number, number>(), refusedWrites: 0, schemaBreaks: 0 };

beforeAll(async () => {
  fakes = await startSampleUpstreams();
  media = await startRebrickableMedia();
  ctx = await createTestContext(
    { ...fakes.env, ...media.env, SAMPLES_TIMEOUT_MS: '2000' },
    {
      // Raised so the generated requests reach validation and the handlers instead of a 429.
      ordersPerMinute: NO_LIMIT,
      messagesPerMinute: NO_LIMIT,
      helpRequestsPerHour: NO_LIMIT,
      linkTries: NO_LIMIT,
      passkeyTries: NO_LIMIT,
      loginLimits: { freeFailuresPerAddressAndAccount: NO_LIMIT, failuresPerAddressAndAccount: NO_LIMIT, slowdownAfterPerAccount: NO_LIMIT, slowdownAfterPerAddress: NO_LIMIT, ceilingPerAddress: NO_LIMIT },
    },
    { emulator: true, kisiRatePerSecond: 100_000 },
  );
  base = ctx.url!;
  endpoints = new Map(ctx.endpoints.map((endpoint) => [describeEndpoint(endpoint), endpoint]));
  const emulator = ctx.kisi!.emulator!.database;
  const [tables, emulatorTables] = [await tablesOf(ctx.database, EXEMPT_TABLES), await tablesOf(emulator)];
  snapshot = async () => new Map([...(await snapshotOf(ctx.database, tables, EXEMPT_COLUMNS)), ...(await snapshotOf(emulator, emulatorTables))]);
  // The accounts the small ids name (the team's endpoints delete, deactivate and demote them), so the callers' own stay as they are.
  for (let n = 1; n <= 13; n++) await ctx.loginAs(n % 3 ? 'staff' : 'runner', `fuzz-team-${n}@frontdesk.test`);
  for (const role of ['admin', 'staff', 'runner'] as const) cookies[role] = (await signInPerson(ctx, role, `fuzz-${role}@frontdesk.test`)).cookie;
  hints = await seedFixtures();
}, 60_000);

afterAll(async () => {
  const perEndpoint = [...counts.byEndpoint.values()];
  const statuses = [...counts.byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(' ');
  console.log(
    `fuzz: seed ${SEED}, ${counts.requests} requests to ${counts.byEndpoint.size} endpoints (${Math.min(...perEndpoint)}–${Math.max(...perEndpoint)} each), ` +
      `${counts.schemaBreaks} broke their schema on a clean wire, ${counts.refusedWrites} refused writes checked against the database; statuses ${statuses}`,
  );
  await ctx?.kisi?.emulator?.settle();
  ctx?.endStreams();
  await ctx?.close();
  await fakes?.close();
  await media?.close();
});

/** As an admin, through the API: JSON in, the answer's JSON out (the fixtures' setup must succeed). */
async function admin<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  const answer = await rawCall(base, {
    method,
    url,
    headers: { Cookie: cookies.admin!, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
  });
  if (answer.status >= 300) throw new Error(`fixture ${method} ${url} answered ${answer.status}: ${answer.text}`);
  return answer.json as T;
}

/** A little of everything, so that plausible ids find rows and the handlers run past their lookups; the values fields are worth trying. */
async function seedFixtures(): Promise<Hints> {
  const kisiUsers = await admin<Array<{ id: number; email: string }>>('GET', '/api/kisi/users?limit=5');
  const owner = await admin<{ id: number }>('POST', '/api/gym/owners', { name: 'Fuzz Owner', email: 'owner@fuzz.test', gymName: 'Fuzz Gym' });
  await admin('POST', '/api/gym/owners', { name: 'Empty Owner', email: 'empty-owner@fuzz.test', gymName: 'Empty Gym' });
  const member = await admin<{ id: number }>('POST', '/api/gym/users', { email: kisiUsers[1]!.email, name: 'Fuzz Member', ownerId: owner.id });
  const stall = await admin<{ id: number }>('POST', '/api/pt/stalls', { name: 'Fuzz Stall', cuisine: 'Soup' });
  const item = await admin<{ id: number }>('POST', `/api/pt/stalls/${stall.id}/items`, { name: 'Soup', priceCents: 450 });
  await admin('POST', `/api/pt/stalls/${stall.id}/items`, { name: 'Bread', priceCents: 150, allergens: ['gluten'] });
  const order = await admin<{ id: number; token: string }>('POST', '/api/pt/order', { table: 3, cart: [{ itemId: item.id, quantity: 2 }] });
  const channel = await admin<{ id: number }>('POST', '/api/chat/channels', { name: 'Fuzz', runnersMayJoin: true });
  const message = await admin<{ id: number }>('POST', `/api/chat/channels/${channel.id}/messages`, { body: 'hello' });
  const started = await admin<{ id: number; token: string }>('POST', '/api/conversations', { name: 'Guest', table: 4, body: 'help, please' });
  guestCookie = `${GUEST_COOKIE}=${started.token}`;
  await admin('POST', '/api/kisi-emulator/unlocks', { email: kisiUsers[1]!.email });
  await ctx.kisi!.emulator!.settle();
  const upload = await rawCall(base, {
    method: 'POST',
    url: '/api/uploads/tus',
    headers: {
      Cookie: cookies.admin!,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '5',
      'Upload-Metadata': `filename ${Buffer.from('hello.txt').toString('base64')},filetype ${Buffer.from('text/plain').toString('base64')}`,
      'Content-Type': 'application/offset+octet-stream',
    },
    body: Buffer.from('hello'),
  });
  if (upload.status !== 201) throw new Error(`fixture upload answered ${upload.status}: ${upload.text}`);
  const { items: events } = await admin<{ items: Array<{ id: number }> }>('GET', '/api/webhook');
  const { items: uploads } = await admin<{ items: Array<{ id: number }> }>('GET', '/api/uploads');
  const { user } = await admin<{ user: { id: number } }>('GET', '/api/auth/getAuth');
  // Links that open, so an answer to one gets past its lookup.
  const invited = await admin<{ link: { token: string } }>('POST', '/api/team/invitations', { email: 'invited@fuzz.test', role: 'runner' });
  const reset = await admin<{ token: string }>('POST', '/api/team/accounts/1/reset-link', {});

  const ids = [owner.id, member.id, stall.id, item.id, order.id, channel.id, message.id, started.id, events[0]!.id, uploads[0]!.id, 1, 2, 3].map(String);
  return {
    id: [...new Set(ids)],
    ownerId: [String(owner.id)],
    itemId: [String(item.id)],
    orderId: [String(order.id)],
    upTo: [String(message.id)],
    before: [String(message.id)],
    assigneeId: [String(user.id)],
    lockId: ['1', '2'],
    user_id: kisiUsers.map((u) => String(u.id)),
    group_id: ['1', '2'],
    token: [order.token, invited.link.token, reset.token],
    email: [kisiUsers[1]!.email, kisiUsers[2]!.email, 'owner@fuzz.test', 'fuzz-admin@frontdesk.test'],
    password: ['correct-horse-battery'],
    idOrName: ['pikachu', 'bulbasaur', '25', '1'],
    src: [
      `${fakes.urls.sprites}/pokemon/other/official-artwork/1.png`,
      `${fakes.urls.rickandmorty}/character/avatar/1.jpeg`,
      media.setPicture('10270-1'),
      `${media.mediaUrl}/parts/ldraw/4/3001.png`,
      'https://evil.example/x.png',
    ],
    category: ['1'],
    type: ['lock.unlock'],
    since: ['2020-01-01T00:00:00.000Z'],
    doorId: ['1', '2'],
    result: ['granted', 'denied'],
    person: ['a', 'Nadia'],
  };
}

// ---- one request --------------------------------------------------------------------------------

const encodePart = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return value; // a lone surrogate: sent as it is
  }
};

/**
 * Who sends a request: a caller of the access table; `guest`, a guest's device (its conversation's cookie);
 * `fresh`, staff with a session of its own (logout ends the session it is sent with); `kisi`, no session
 * but the webhook's signature over whatever body is sent (so the body gets read).
 */
type Sender = Caller | 'guest' | 'fresh' | 'kisi';

async function cookieOf(sender: Sender): Promise<string | undefined> {
  if (sender === 'guest') return guestCookie;
  if (sender === 'fresh') return (await signInPerson(ctx, 'staff', `fuzz-fresh-${++signIns}@frontdesk.test`)).cookie;
  if (sender === 'kisi') return undefined;
  return cookies[sender];
}

async function send(endpoint: Endpoint, req: FuzzRequest, sender: Sender, session: string | undefined): Promise<RawAnswer> {
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => (req.rawParams ? req.params[name]! : encodePart(req.params[name]!)));
  const headers: Record<string, string> = { ...req.headers };
  // An odd cookie goes first: the server reads the first `sid` it finds.
  const cookie = [headers.Cookie, session].filter(Boolean).join('; ');
  if (cookie) headers.Cookie = cookie;
  else delete headers.Cookie;
  let body: Buffer | undefined;
  if (req.body.kind === 'json') {
    headers['Content-Type'] = 'application/json';
    body = Buffer.from(JSON.stringify(req.body.value) ?? '');
  } else if (req.body.kind === 'raw') {
    if (req.body.contentType) headers['Content-Type'] = req.body.contentType;
    if (req.body.contentEncoding) headers['Content-Encoding'] = req.body.contentEncoding;
    body = req.body.bytes;
  }
  if (sender === 'kisi' && headers['X-Signature'] === undefined) headers['X-Signature'] = signBody(body ?? Buffer.alloc(0), ctx.kisi!.settings.webhookSecret!);
  return rawCall(base, { method: req.method, url: req.query ? `${path}?${req.query}` : path, headers, body });
}

/**
 * The fields a request breaks, by the endpoint's own schemas, when nothing else about it is odd:
 * the server must then answer 400 naming each of them. Undefined when the wire was odd (the answer
 * may rightly be another 4xx). Kisi's proxy checks only ids; Kisi validates the rest itself.
 */
function brokenFields(endpoint: Endpoint, req: FuzzRequest): string[] | undefined {
  if (!req.plainTransport) return undefined;
  // The JSON parser takes only objects and arrays, whatever the endpoint (its own 400 names no field), and at most 100 kB (a 413).
  if (req.body.kind === 'json' && (typeof req.body.value !== 'object' || req.body.value === null || Buffer.byteLength(JSON.stringify(req.body.value)) > JSON_LIMIT_BYTES)) return undefined;
  const kisi = endpoint.path.startsWith(`${KISI_PROXY_PREFIX}/`);
  const broken: string[] = [];
  const check = (part: 'params' | 'query' | 'body', schema: v.GenericSchema, value: unknown) => {
    const result = v.safeParse(schema, value);
    if (!result.success) broken.push(...result.issues.map((issue) => (v.getDotPath(issue) ? `${part}.${v.getDotPath(issue)}` : part)));
  };
  if (endpoint.params) {
    // Values that change which route the path matches ('' or dot segments) are not a field's fault.
    if (req.rawParams || Object.values(req.params).some((value) => value === '' || value === '.' || value === '..')) return undefined;
    check('params', endpoint.params, req.params);
  }
  if (endpoint.query && !kisi && req.plainQuery) check('query', endpoint.query, querystring.parse(req.query));
  if (endpoint.body && !kisi) {
    if (req.body.kind === 'raw') return undefined;
    check('body', endpoint.body, req.body.kind === 'json' ? JSON.parse(JSON.stringify(req.body.value)) : {});
  }
  return broken;
}

/** Kisi's own error, passed through its proxy as Kisi wrote it (DESIGN §6). */
const isKisiError = (endpoint: Endpoint, answer: RawAnswer) =>
  endpoint.path.startsWith(`${KISI_PROXY_PREFIX}/`) &&
  String(answer.headers['content-type']).startsWith('application/json') &&
  (v.is(KisiErrorSchema, answer.json) || v.is(KisiValidationErrorsSchema, answer.json));

/** What is wrong with an answer, or undefined. */
function fault(endpoint: Endpoint, req: FuzzRequest, answer: RawAnswer): string | undefined {
  // GET /api/bad fails on purpose (the /bad demo page); Kisi's own 5xx its contract names pass through (a door offline is 503).
  const declared = (endpoint.path === '/api/bad' && answer.status === 500) || (endpoint.errors?.includes(answer.status) && isKisiError(endpoint, answer));
  if (answer.status >= 500 && !declared) return `a ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status >= 400 && answer.status < 500 && !isKisiError(endpoint, answer)) {
    const problem = problemOf(answer);
    if ('wrong' in problem) return `a ${answer.status} that is no problem document: ${problem.wrong}`;
  }
  const broken = brokenFields(endpoint, req);
  if (broken?.length) {
    counts.schemaBreaks++;
    if (answer.status === 429) return undefined;
    const named = answer.status === 400 && answer.json ? ((answer.json as { errors?: Array<{ path: string }> }).errors ?? []).map((e) => e.path) : [];
    const unnamed = broken.filter((path) => !named.includes(path));
    if (answer.status !== 400 || unnamed.length > 0) return `the request breaks ${broken.join(', ')}; the answer (${answer.status}) does not name ${unnamed.join(', ')}: ${answer.text.slice(0, 300)}`;
  }
  return undefined;
}

const describeRequest = (req: FuzzRequest, caller: string) => {
  const body = req.body.kind === 'json' ? JSON.stringify(req.body.value) : req.body.kind === 'raw' ? `${req.body.label} (${req.body.bytes.length} bytes)` : 'no body';
  const clip = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text);
  return `${req.method} as ${caller}: params ${clip(JSON.stringify(req.params))}${req.rawParams ? ' (raw)' : ''}, query ${clip(JSON.stringify(req.query))}, body ${clip(body)}, headers ${clip(JSON.stringify(req.headers))}`;
};

// ---- the run ------------------------------------------------------------------------------------

/** Reads first, then creates, changes and deletes, so the fixtures last as long as they can. */
const ORDER = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const keys = (Object.keys(ACCESS_MATRIX) as EndpointKey[]).sort((a, b) => ORDER.indexOf(a.split(' ')[0]!) - ORDER.indexOf(b.split(' ')[0]!));
/** Each endpoint's own seed, from the run's and its name: an endpoint added elsewhere changes no other's requests. */
const seedOf = (key: string) => (SEED + crypto.createHash('sha256').update(key).digest().readInt32BE(0)) | 0;

/** Callers the endpoint admits, a guest's cookie for the conversations, a session of its own for logout and ending a session, Kisi for its webhook. */
function callersOf(key: EndpointKey): fc.Arbitrary<Sender> {
  if (key === 'POST /api/auth/logout') return fc.constantFrom<Sender>('none', 'fresh');
  // Ending a session by its id could end a caller's own (ids 1, 2, 3 are among the hints): a session of its own each time.
  if (key === 'DELETE /api/account/sessions/:id') return fc.constantFrom<Sender>('fresh');
  if (key === 'POST /api/webhooks/kisi') return fc.constantFrom<Sender>('none', 'kisi', 'kisi');
  const admitted = CALLERS.filter((caller) => ACCESS_MATRIX[key]![caller] === 'allowed');
  const guest = key.includes(' /api/conversations') && admitted.includes('none');
  return fc.constantFrom<Sender>(...admitted, ...(guest ? (['guest'] as const) : []));
}

describe('every endpoint under generated bad input', () => {
  it.each(keys)('%s', async (key) => {
    const endpoint = endpoints.get(key);
    if (!endpoint) throw new Error(`${key} is in the access table but not mounted`);
    const writes = endpoint.method !== 'GET';
    const settle = () => ctx.kisi!.emulator!.settle();
    let before: DatabaseSnapshot | undefined;
    if (writes) {
      await settle();
      before = await snapshot();
    }

    const run = await fc.check(
      fc.asyncProperty(requestFor(endpoint, hints), callersOf(key), async (req, caller) => {
        const session = await cookieOf(caller);
        // A session of its own was just written: the request starts from there.
        if (writes && caller === 'fresh') before = await snapshot();
        const answer = await send(endpoint, req, caller, session);
        counts.requests++;
        counts.byEndpoint.set(key, (counts.byEndpoint.get(key) ?? 0) + 1);
        counts.byStatus.set(answer.status, (counts.byStatus.get(answer.status) ?? 0) + 1);
        const wrong = fault(endpoint, req, answer);
        if (wrong) throw new Error(`${key} answered ${wrong}\n  to ${describeRequest(req, caller)}`);
        if (!writes) return;
        if (answer.status >= 400) {
          counts.refusedWrites++;
          const recorded = isKisiError(endpoint, answer) ? (RECORDED_REFUSALS[key] ?? []) : [];
          if (recorded.length > 0) await settle();
          const after = await snapshot();
          const changes = changesBetween(before!, after).filter((change) => !recorded.includes(change.table));
          if (changes.length > 0) {
            const wrote = changes.map((change) => `${change.table}: ${change.before} → ${change.after}`).join('\n  ');
            throw new Error(`${key} refused with ${answer.status} but wrote:\n  ${wrote}\n  to ${describeRequest(req, caller)}`);
          }
          before = after;
        } else {
          // It did something: what it wrote (an unlock's webhook included) is the next request's starting point.
          await settle();
          before = await snapshot();
        }
      }),
      { seed: seedOf(key), numRuns: RUNS, endOnFailure: process.env.FUZZ_SHRINK !== '1' },
    );
    // fast-check's own report prints the whole counterexample (a 100 kB body included): the failure's own message says it in short.
    if (run.failed) {
      const cause = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
      throw new Error(`${cause}\n(fast-check seed ${run.seed}, path ${run.counterexamplePath}, after ${run.numRuns} runs and ${run.numShrinks} shrinks; FUZZ_SHRINK=1 shrinks it)`);
    }

    const status = await rawCall(base, { method: 'GET', url: '/api' });
    expect(status.status).toBe(200);
  }, 120_000);
});

// ---- tus uploads, outside the contracts ---------------------------------------------------------

/** Printable header text (a header value the wire can carry), plausible and junk numbers among it. */
const headerText = fc.oneof(
  fc.stringMatching(/^[\x20-\x7e]{0,40}$/),
  fc.constantFrom('', '-1', '1e3', '0x10', '99999999999999999999', ' 5', '5 ', 'NaN', '0', '1'),
);
const base64 = (text: string) => Buffer.from(text).toString('base64');
/** `Upload-Metadata`: well formed (any name, a known type or not), or not at all. */
const metadata = fc.oneof(
  fc
    .record({ name: fc.string({ maxLength: 80 }), type: fc.constantFrom('text/plain', 'image/png', 'application/pdf', 'application/x-msdownload', '', 'text/plain;charset=x') })
    .map(({ name, type }) => `${UPLOAD_METADATA_KEYS.name} ${base64(name)},${UPLOAD_METADATA_KEYS.type} ${base64(type)}`),
  headerText,
  fc.constantFrom('filename', 'filename !!!', `filename ${base64('a')},filename ${base64('b')}`, `batchFiles ${base64('-3')}`, `batchBytes ${base64('1e99')}`),
);
/** The header in `weight` of 10 requests (rare ones would otherwise refuse most requests before the rest is read). */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number) => fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary });

/** A tus request with generated protocol headers: creations, byte sends, status asks, ends and preflights. */
const tusRequest = (ids: readonly string[]) =>
  fc.record({
    method: fc.constantFrom('POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS'),
    id: fc.constantFrom(...ids, 'no-such-upload', '..%2F..%2Fpending', '%00', 'a'.repeat(300)),
    caller: fc.constantFrom<Caller>('staff', 'admin'),
    headers: fc
      .record({
        'Tus-Resumable': fc.oneof({ weight: 9, arbitrary: fc.constant('1.0.0') }, { weight: 1, arbitrary: headerText }),
        'Upload-Length': sometimes(fc.oneof({ weight: 3, arbitrary: fc.nat({ max: 64 }).map(String) }, { weight: 1, arbitrary: fc.constant(String(10 ** 12)) }, { weight: 1, arbitrary: headerText }), 7),
        'Upload-Defer-Length': sometimes(fc.constantFrom('1', '0', 'x'), 1),
        'Upload-Metadata': sometimes(metadata, 7),
        'Upload-Offset': sometimes(fc.oneof(fc.nat({ max: 8 }).map(String), headerText), 4),
        'Upload-Concat': sometimes(fc.constantFrom('partial', 'final;/api/uploads/tus/x', 'x'), 1),
        'Content-Type': sometimes(fc.oneof({ weight: 4, arbitrary: fc.constant('application/offset+octet-stream') }, { weight: 1, arbitrary: fc.constantFrom('application/json', 'text/plain', 'multipart/form-data') }), 7),
        'X-HTTP-Method-Override': sometimes(fc.constantFrom('GET', 'DELETE', 'PATCH'), 1),
      })
      .map((headers) => Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined)) as Record<string, string>),
    body: sometimes(fc.uint8Array({ maxLength: 64 }), 4),
  });

describe('tus uploads (outside the contracts) under generated bad input', () => {
  it.each(Object.keys(PROTOCOL_ACCESS_MATRIX).filter((key) => key !== 'OPTIONS /api/uploads/tus') as ProtocolKey[])('%s', async (key) => {
    const [wanted] = key.split(' ');
    // An upload under way to send bytes to, ask about and end (one of each caller's own; the other's is someone else's).
    const underWay = async (caller: Caller) => {
      const created = await rawCall(base, {
        method: 'POST',
        url: '/api/uploads/tus',
        headers: { Cookie: cookies[caller]!, 'Tus-Resumable': '1.0.0', 'Upload-Length': '8', 'Upload-Metadata': `filename ${base64('fuzz.txt')},filetype ${base64('text/plain')}` },
      });
      if (created.status !== 201) throw new Error(`fixture upload answered ${created.status}: ${created.text}`);
      return String(created.headers.location).split('/').pop()!;
    };
    const ids = [await underWay('staff'), await underWay('admin')];
    let before = await snapshot();
    const run = await fc.check(
      fc.asyncProperty(tusRequest(ids), async (req) => {
        const method = key.startsWith('POST ') ? 'POST' : (wanted as 'PATCH' | 'HEAD' | 'DELETE');
        const url = method === 'POST' ? '/api/uploads/tus' : `/api/uploads/tus/${req.id}`;
        const answer = await rawCall(base, { method, url, headers: { ...req.headers, Cookie: cookies[req.caller]! }, body: req.body && Buffer.from(req.body) });
        counts.requests++;
        counts.byEndpoint.set(key, (counts.byEndpoint.get(key) ?? 0) + 1);
        counts.byStatus.set(answer.status, (counts.byStatus.get(answer.status) ?? 0) + 1);
        const described = `${method} ${url} as ${req.caller}, headers ${JSON.stringify(req.headers)}, ${req.body?.length ?? 'no'} bytes`;
        // tus's own 501 for an extension it does not have (parallel uploads' Upload-Concat): declared, as Kisi's 5xx are (uploads.router.ts).
        const declared = answer.status === 501 && req.headers['Upload-Concat'] !== undefined;
        if (answer.status >= 500 && !declared) throw new Error(`${key} answered a ${answer.status}: ${answer.text.slice(0, 300)}\n  to ${described}`);
        if (answer.status >= 400 && method !== 'HEAD') {
          const problem = problemOf(answer);
          if ('wrong' in problem) throw new Error(`${key} answered a ${answer.status} that is no problem document: ${problem.wrong}\n  to ${described}`);
        }
        const after = await snapshot();
        if (answer.status >= 400) {
          counts.refusedWrites++;
          const changes = changesBetween(before, after);
          if (changes.length > 0) throw new Error(`${key} refused with ${answer.status} but wrote:\n  ${changes.map((c) => `${c.table}: ${c.before} → ${c.after}`).join('\n  ')}\n  to ${described}`);
        }
        before = after;
      }),
      { seed: seedOf(key), numRuns: RUNS * 2, endOnFailure: process.env.FUZZ_SHRINK !== '1' },
    );
    if (run.failed) {
      const cause = run.errorInstance instanceof Error ? run.errorInstance.message : String(run.errorInstance);
      throw new Error(`${cause}\n(fast-check seed ${run.seed}, path ${run.counterexamplePath}, after ${run.numRuns} runs and ${run.numShrinks} shrinks; FUZZ_SHRINK=1 shrinks it)`);
    }
    expect((await rawCall(base, { method: 'GET', url: '/api' })).status).toBe(200);
  }, 120_000);
});
