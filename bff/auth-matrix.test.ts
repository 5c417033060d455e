import { ACCESS_MATRIX, CALLERS, PROTOCOL_ACCESS_MATRIX, type AccessRow, type Caller, type EndpointKey, type ProtocolKey } from './test-support/access-matrix';
import { UPLOAD_METADATA_KEYS } from './contracts/uploads.contract';
import { describeEndpoint, type Access, type Endpoint } from './contracts/endpoint.contract';
import { signBody } from './kisi/signature';
import { signInPerson } from './test-support/live-client';
import { problemOf, rawCall, type RawAnswer } from './test-support/raw-call';
import { startSampleUpstreams, type SampleUpstreams } from './test-support/sample-upstreams';
import { createTestContext, type TestContext } from './test-support/test-app';

/**
 * Every endpoint × {no session, runner, staff, admin} against the table of who may do what
 * (bff/test-support/access-matrix.ts): a refused call answers exactly the table's 401 or 403 as a
 * problem document; an allowed one never answers 401 or 403 (whatever else its minimal input earns
 * it: a 400 shows the call got past the session and role checks, which come first).
 */

let fakes: SampleUpstreams;
let ctx: TestContext;
let mounted: readonly Endpoint[];
const cookies: Partial<Record<Caller, string>> = {};
let people = 0;

beforeAll(async () => {
  fakes = await startSampleUpstreams();
  ctx = await createTestContext(fakes.env, {}, { emulator: true, kisiRatePerSecond: 100_000 });
  mounted = ctx.endpoints;
  // Account 1, which the calls' `:id` names: an admin deletes or changes it, and the callers stay as they are.
  await ctx.loginAs('staff', 'matrix-target@frontdesk.test');
  for (const role of ['runner', 'staff', 'admin'] as const) cookies[role] = (await signInPerson(ctx, role, `matrix-${role}@frontdesk.test`)).cookie;
}, 30_000);

afterAll(async () => {
  await ctx?.kisi?.emulator?.settle();
  ctx?.endStreams();
  await ctx?.close();
  await fakes?.close();
});

const keys = Object.keys(ACCESS_MATRIX) as EndpointKey[];

/** What an endpoint's own `access` says each caller gets. */
function rowOf(access: Access): AccessRow {
  if (access === 'public') return { none: 'allowed', runner: 'allowed', staff: 'allowed', admin: 'allowed' };
  const may = (role: 'runner' | 'staff') => (access === 'user' || access.includes(role) ? 'allowed' : 403);
  return { none: 401, runner: may('runner'), staff: may('staff'), admin: 'allowed' };
}

describe('the access table', () => {
  it('has one row for every endpoint the API mounts (Kisi’s through the proxy included), and no row without one', () => {
    const described = mounted.map(describeEndpoint);
    expect(described.filter((key) => !(key in ACCESS_MATRIX))).toEqual([]);
    expect(keys.filter((key) => !described.includes(key))).toEqual([]);
    expect(new Set(described).size).toBe(described.length);
  });

  it('says for each endpoint what the endpoint’s own access says', () => {
    for (const endpoint of mounted) {
      const key = describeEndpoint(endpoint) as EndpointKey;
      expect({ key, row: ACCESS_MATRIX[key] }).toEqual({ key, row: rowOf(endpoint.access) });
    }
  });
});

/** A session of its own for `caller`: logout ends the session it is sent with. */
async function freshCookie(caller: Caller): Promise<string | undefined> {
  return caller === 'none' ? undefined : (await signInPerson(ctx, caller, `matrix-fresh-${++people}@frontdesk.test`)).cookie;
}

/** The smallest input that could pass: id 1 for each path parameter, `{}` for a body; a webhook signed as Kisi signs it. */
async function call(endpoint: Endpoint, caller: Caller): Promise<RawAnswer> {
  const key = describeEndpoint(endpoint);
  const cookie = key === 'POST /api/auth/logout' ? await freshCookie(caller) : cookies[caller];
  const headers: Record<string, string> = cookie ? { Cookie: cookie } : {};
  let body: Buffer | undefined;
  if (endpoint.method !== 'GET') {
    body = Buffer.from(key === 'POST /api/webhooks/kisi' ? JSON.stringify({ uuid: `matrix-${caller}`, type: 'lock.unlock', success: true, created_at: new Date().toISOString() }) : '{}');
    headers['Content-Type'] = 'application/json';
    if (key === 'POST /api/webhooks/kisi') headers['X-Signature'] = signBody(body, ctx.kisi!.settings.webhookSecret!);
  }
  return rawCall(ctx.url!, { method: endpoint.method, url: endpoint.path.replace(/:\w+/g, '1'), headers, body });
}

describe('every endpoint as no session, a runner, staff and an admin', () => {
  it.each(keys)('%s', async (key) => {
    const endpoint = mounted.find((candidate) => describeEndpoint(candidate) === key);
    expect(endpoint ? key : `${key} is not mounted`).toBe(key);
    const got: Partial<Record<Caller, unknown>> = {};
    const expected: Partial<Record<Caller, unknown>> = {};
    for (const caller of CALLERS) {
      const answer = await call(endpoint!, caller);
      const outcome = ACCESS_MATRIX[key]![caller];
      if (outcome === 'allowed') {
        expected[caller] = 'allowed';
        got[caller] = answer.status === 401 || answer.status === 403 ? `${answer.status}: ${answer.text}` : 'allowed';
      } else {
        const problem = problemOf(answer);
        expected[caller] = { status: outcome, problem: true };
        got[caller] = { status: answer.status, problem: 'problem' in problem ? true : problem.wrong };
      }
    }
    expect(got).toEqual(expected);
  });
});

/** A tus request that could pass (a one-byte upload, its one byte), as the four callers send it. */
function tusCall(key: ProtocolKey, caller: Caller): Promise<RawAnswer> {
  const [method, path] = key.split(' ') as [ProtocolKey extends `${infer M} ${string}` ? M : never, string];
  const cookie = cookies[caller];
  const headers: Record<string, string> = { 'Tus-Resumable': '1.0.0', ...(cookie ? { Cookie: cookie } : {}) };
  let body: Buffer | undefined;
  if (method === 'POST') {
    headers['Upload-Length'] = '1';
    headers['Upload-Metadata'] = `${UPLOAD_METADATA_KEYS.name} ${Buffer.from('matrix.txt').toString('base64')},${UPLOAD_METADATA_KEYS.type} ${Buffer.from('text/plain').toString('base64')}`;
  }
  if (method === 'PATCH') {
    headers['Content-Type'] = 'application/offset+octet-stream';
    headers['Upload-Offset'] = '0';
    body = Buffer.from('x');
  }
  return rawCall(ctx.url!, { method, url: path.replace(':id', 'no-such-upload'), headers, body });
}

describe('tus uploads (outside the contracts) as no session, a runner, staff and an admin', () => {
  it.each(Object.keys(PROTOCOL_ACCESS_MATRIX) as ProtocolKey[])('%s', async (key) => {
    const got: Partial<Record<Caller, unknown>> = {};
    const expected: Partial<Record<Caller, unknown>> = {};
    for (const caller of CALLERS) {
      const answer = await tusCall(key, caller);
      const outcome = PROTOCOL_ACCESS_MATRIX[key]![caller];
      if (outcome === 'allowed') {
        expected[caller] = 'allowed';
        got[caller] = answer.status === 401 || answer.status === 403 ? `${answer.status}: ${answer.text}` : 'allowed';
      } else {
        // A HEAD answer has no body: its refusal is its status (and the problem's type).
        const problem = key.startsWith('HEAD ') ? (String(answer.headers['content-type']).startsWith('application/problem+json') ? { problem: true } : { wrong: 'not a problem' }) : problemOf(answer);
        expected[caller] = { status: outcome, problem: true };
        got[caller] = { status: answer.status, problem: 'problem' in problem ? true : problem.wrong };
      }
    }
    expect(got).toEqual(expected);
  });
});
