import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { createTestContext, type TestContext } from '../../test-support/test-app';

/**
 * Contract: every emulator operation's status, headers and body validate against Kisi's own OpenAPI
 * schema (Kisi's own OpenAPI schema for our endpoints, kept beside this file), with Ajv's JSON Schema
 * 2020-12 validator — OpenAPI 3.1's dialect. Read leniently only where the schema's notes say so
 * (unknown keywords such as `example`/`deprecated` are annotations; the oneOf of
 * RoleAssignmentUpdateRequest is a request schema the emulator never answers with).
 */
type Json = Record<string, unknown>;
const spec = parse(fs.readFileSync(path.join(process.cwd(), 'bff/kisi/emulator/kisi-openapi-subset.yaml'), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, Json> }>>;
  components: Json & { responses: Record<string, Json>; headers: Record<string, Json> };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: 'kisi.json', components: spec.components });

const deref = (node: Json): Json => {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, kind, name] = ref.match(/^#\/components\/(\w+)\/(.+)$/) ?? [];
  return deref((spec.components[kind!] as Record<string, Json>)[name!]!);
};

const schemaValidator = (schema: Json) => {
  const ref = schema.$ref;
  if (typeof ref === 'string') return ajv.getSchema(`kisi.json${ref}`)!;
  return ajv.compile({ $id: `inline-${Math.random()}`, ...JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"kisi.json#/components/')) });
};

const checked = new Set<string>();

/** Fails unless the status is documented for the operation and headers and body match its schema. */
function expectContract(method: string, template: string, res: Response, body: string) {
  // Kisi's spec documents each update as PATCH only; PUT is the same operation, so it answers the same.
  const operation = spec.paths[template]?.[method.toLowerCase()] ?? (method === 'PUT' ? spec.paths[template]?.patch : undefined);
  if (!operation) throw new Error(`${method} ${template} is not in the OpenAPI subset`);
  const documented = operation.responses[String(res.status)];
  if (!documented) throw new Error(`${method} ${template} answered ${res.status}, which the schema does not document: ${body}`);
  const response = deref(documented);
  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const value = res.headers.get(name);
    if (value === null) throw new Error(`${method} ${template} ${res.status} lacks the ${name} header`);
    const validate = schemaValidator(deref(header).schema as Json);
    if (!validate(value)) throw new Error(`${name}: ${value} → ${ajv.errorsText(validate.errors)}`);
  }
  const content = response.content as Record<string, { schema: Json }> | undefined;
  if (!content) {
    expect(body).toBe('');
  } else {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const validate = schemaValidator(content['application/json']!.schema);
    const data: unknown = JSON.parse(body);
    if (!validate(data)) throw new Error(`${method} ${template} ${res.status} body does not match: ${ajv.errorsText(validate.errors)}\n${body.slice(0, 1500)}`);
  }
  checked.add(`${method} ${template} ${res.status}`);
}

let ctx: TestContext;
let baseUrl: string;
let key: string;

beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  baseUrl = ctx.kisi!.settings.baseUrl;
  key = ctx.kisi!.settings.apiKey;
});
afterAll(() => ctx.close());

async function call(method: string, template: string, url: string, body?: unknown, auth = true) {
  const res = await fetch(`${baseUrl}${url}`, {
    method,
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...(auth ? { Authorization: `KISI-LOGIN ${key}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  expectContract(method, template, res, text);
  return { status: res.status, range: res.headers.get('x-collection-range'), json: text ? (JSON.parse(text) as unknown) : undefined };
}
type Item = { id: number; name?: string; email?: string };

/**
 * For a read the subset has no operation for — GET /events, which Kisi's current spec replaced with
 * event sets — the status, X-Collection-Range and every item against the schema the subset has.
 */
async function callUnlisted(url: string, itemSchema: string) {
  const res = await fetch(`${baseUrl}${url}`, { headers: { Accept: 'application/json', Authorization: `KISI-LOGIN ${key}` } });
  expect(res.status).toBe(200);
  const range = schemaValidator(deref(spec.components.headers['X-Collection-Range']!).schema as Json);
  if (!range(res.headers.get('x-collection-range'))) throw new Error(`X-Collection-Range: ${res.headers.get('x-collection-range')} → ${ajv.errorsText(range.errors)}`);
  const items = (await res.json()) as unknown[];
  const validate = schemaValidator({ $ref: `#/components/schemas/${itemSchema}` });
  for (const item of items) if (!validate(item)) throw new Error(`GET ${url} item does not match ${itemSchema}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(item)}`);
  checked.add(`GET ${url.replace(/\?.*$/, '')} 200`);
  return items;
}

describe('emulator responses match Kisi OpenAPI schema', () => {
  it('users: list (paged, searched, filtered, empty), fetch, update, 404s', async () => {
    const all = await call('GET', '/users', '/users');
    expect(all.range).toBe('0-49/40');
    await call('GET', '/users', '/users?limit=3&offset=38&sort=-name');
    await call('GET', '/users', '/users?query=harbourside&sort=unlock');
    const empty = await call('GET', '/users', '/users?query=no-such-person');
    expect(empty).toMatchObject({ json: [], range: '0-49/0' });
    const user = (all.json as Item[])[5]!;
    await call('GET', '/users', `/users?email=${encodeURIComponent(user.email!.toUpperCase())}`);
    await call('GET', '/users/{id}', `/users/${user.id}`);
    await call('GET', '/users/{id}', '/users/424242');
    await call('PATCH', '/users/{id}', `/users/${user.id}`, { user: { access_enabled: false, notes: 'Paused at the desk', metadata: { locker: 12 } } });
    await call('PATCH', '/users/{id}', '/users/424242', { user: { access_enabled: true } });
    await call('PUT', '/users/{id}', `/users/${user.id}`, { user: { access_enabled: true, notes: null } });
    await call('PUT', '/users/{id}', '/users/424242', { user: { access_enabled: true } });
    await call('GET', '/users/{id}', `/users/${user.id}`);
  });

  it('members and role assignments (organisation, place and group variants)', async () => {
    await call('GET', '/members', '/members');
    await call('GET', '/members', '/members?query=mail.example&limit=5&offset=5');
    const roles = await call('GET', '/role_assignments', '/role_assignments?limit=250');
    const kinds = new Set((roles.json as Array<{ applies_to_type: string }>).map((r) => r.applies_to_type));
    expect([...kinds].sort()).toEqual(['Group', 'Organization', 'Place']);
    await call('GET', '/role_assignments', '/role_assignments?user_id=2');
    await call('GET', '/role_assignments', '/role_assignments?assignee_type=User&assignee_id=3&sort=-user.name');
  });

  it('groups: list, create (200 and 422), delete (204 and 404)', async () => {
    const list = await call('GET', '/groups', '/groups');
    expect(list.range).toBe('0-9/5');
    await call('GET', '/groups', '/groups?query=gym&sort=name');
    const created = await call('POST', '/groups', '/groups', { group: { name: 'Early Birds', description: null, place_id: 1, login_enabled: true } });
    await call('GET', '/groups/{id}', `/groups/${(created.json as Item).id}`);
    const invalid = await call('POST', '/groups', '/groups', { group: { name: '' } });
    expect(invalid.status).toBe(422);
    await call('POST', '/groups', '/groups', { group: { name: 'Somewhere', place_id: 999 } });
    // Ids past any id column (PostgreSQL's integer ends at 2³¹ − 1) name nothing: 422 and an empty filter, not a 500.
    const far = await call('POST', '/groups', '/groups', { group: { name: 'Far away', place_id: 2 ** 31 } });
    expect(far.json).toEqual({ errors: { place: ['must exist'] } });
    expect((await call('GET', '/groups', '/groups?place_id=99999999999')).json).toEqual([]);
    expect((await call('GET', '/groups', '/groups?ids=99999999999')).json).toEqual([]);
    await call('DELETE', '/groups/{id}', `/groups/${(created.json as Item).id}`);
    await call('DELETE', '/groups/{id}', `/groups/${(created.json as Item).id}`);
  });

  it('group links: list, search, create (200 and 422), delete (204 and 404), 400 for a bad filter', async () => {
    await call('GET', '/group_links', '/group_links?limit=250');
    await call('GET', '/group_links', '/group_links?query=gym%20members&sort=-valid_until');
    await call('GET', '/group_links', '/group_links?group_id=abc');
    const created = await call('POST', '/group_links', '/group_links', {
      group_link: { name: 'Visitor Jane', group_id: ctx.kisi!.settings.groupId, email: 'jane@mail.example', quick_response_code_type: 'online', valid_from: '2026-03-23T05:40:00Z', valid_until: '2026-03-29T05:40:00Z' },
    });
    await call('POST', '/group_links', '/group_links', { group_link: { name: 'Phone only', group_id: ctx.kisi!.settings.groupId, phone: '+14155550123' } });
    const invalid = await call('POST', '/group_links', '/group_links', { group_link: { name: '', group_id: 999, email: 'nope', quick_response_code_type: 'paper' } });
    expect(Object.keys((invalid.json as { errors: object }).errors).sort()).toEqual(['email', 'group', 'name', 'quick_response_code_type']);
    // A group id past any id column (PostgreSQL's integer ends at 2³¹ − 1) names no group: 422, not a 500.
    const unknown = await call('POST', '/group_links', '/group_links', { group_link: { name: 'Far away', group_id: 2 ** 31 } });
    expect(unknown.json).toEqual({ errors: { group: ['must exist'] } });
    await call('DELETE', '/group_links/{id}', `/group_links/${(created.json as Item).id}`);
    await call('DELETE', '/group_links/{id}', `/group_links/${(created.json as Item).id}`);
  });

  it('locks and unlock (200, 404, 409 locked down, 503 offline)', async () => {
    const locks = await call('GET', '/locks', '/locks');
    await call('GET', '/locks', '/locks?favorite=*&sort=-name&place_id=1');
    const byName = new Map((locks.json as Item[]).map((l) => [l.name, l.id]));
    expect((await call('POST', '/locks/{id}/unlock', `/locks/${byName.get('Main Entrance')}/unlock`)).json).toEqual({ message: 'Unlocked!' });
    await call('POST', '/locks/{id}/unlock', '/locks/9999/unlock');
    await call('POST', '/locks/{id}/unlock', `/locks/${byName.get('Server Room')}/unlock`);
    await call('POST', '/locks/{id}/unlock', `/locks/${byName.get('Cold Store')}/unlock`);
  });

  it('places: list (paged, searched, sorted, with and without the favourite flag, empty)', async () => {
    const all = await call('GET', '/places', '/places');
    expect(all.range).toBe('0-49/2');
    await call('GET', '/places', '/places?limit=1&offset=1&sort=-name');
    await call('GET', '/places', '/places?query=food&favorite=*');
    await call('GET', '/places', '/places?favorite=false&sort=favorite');
    expect(await call('GET', '/places', '/places?favorite=true')).toMatchObject({ json: [], range: '0-49/0' });
  });

  it('events: the classic list (not in the subset) holds Event objects, successes and refusals', async () => {
    const locks = (await call('GET', '/locks', '/locks')).json as Item[];
    await ctx.kisi!.emulator!.simulateUnlock('alice.moreau@mail.example');
    await ctx.kisi!.emulator!.simulateUnlock('alice.moreau@mail.example', locks.find((l) => l.name === 'Cold Store')!.id);
    const events = (await callUnlisted('/events?limit=250', 'Event')) as Array<{ success: boolean }>;
    expect(new Set(events.map((e) => e.success))).toEqual(new Set([true, false]));
    await callUnlisted('/events?type=lock.unlock&success=false&since=2020-01-01T00:00:00Z', 'Event');
  });

  it('every operation answers 401 with the Error body without the key', async () => {
    for (const [method, template, url] of [
      ['GET', '/users', '/users'],
      ['GET', '/users/{id}', '/users/2'],
      ['PATCH', '/users/{id}', '/users/2'],
      ['PUT', '/users/{id}', '/users/2'],
      ['GET', '/role_assignments', '/role_assignments'],
      ['GET', '/groups', '/groups'],
      ['POST', '/groups', '/groups'],
      ['DELETE', '/groups/{id}', '/groups/1'],
      ['GET', '/members', '/members'],
      ['GET', '/group_links', '/group_links'],
      ['POST', '/group_links', '/group_links'],
      ['DELETE', '/group_links/{id}', '/group_links/1'],
      ['GET', '/locks', '/locks'],
      ['GET', '/places', '/places'],
      ['POST', '/locks/{id}/unlock', '/locks/1/unlock'],
    ] as const) {
      expect((await call(method, template, url, undefined, false)).status).toBe(401);
    }
  });

  afterAll(() => {
    // Every operation the proxy allows was checked in its success and failure forms.
    for (const op of ['GET /users 200', 'GET /users/{id} 404', 'PATCH /users/{id} 204', 'PUT /users/{id} 204', 'POST /groups 422', 'DELETE /group_links/{id} 404', 'POST /locks/{id}/unlock 503', 'GET /places 200', 'GET /events 200']) {
      expect(checked).toContain(op);
    }
  });
});

describe('the contract checker itself', () => {
  it('rejects shapes Kisi would not send, so a passing check means something', () => {
    const user = schemaValidator({ $ref: '#/components/schemas/User' });
    expect(user({ id: 1, resource_type: 'User', name: 'A', email: 'a@b.example' })).toBe(false);
    const range = schemaValidator(deref(spec.components.headers['X-Collection-Range']!).schema as Json);
    expect(range('0-9/15')).toBe(true);
    expect(range('*/0')).toBe(false);
    const unlock = schemaValidator({ $ref: '#/components/schemas/LockUnlockResponse' });
    expect(unlock({ message: 'Unlocked' })).toBe(false);
    const event = schemaValidator({ $ref: '#/components/schemas/Event' });
    expect(event({ uuid: crypto.randomUUID(), type: 'lock.unlock', actor_type: 'User', actor_id: 1, object_type: 'Lock', object_id: 1, success: true, created_at: '2026-01-01T00:00:00Z' })).toBe(false);
  });
});

describe('emulator paging follows Kisi per-endpoint defaults and maxima', () => {
  it.each([
    ['/users', 50, 100],
    ['/members', 50, 100],
    ['/locks', 50, 250],
    ['/places', 50, 250],
    ['/events', 50, 250],
    ['/groups', 10, 250],
    ['/group_links', 10, 250],
    ['/role_assignments', 10, 250],
  ])('%s: default limit %i, maximum %i', async (url, def, max) => {
    const auth = { headers: { Authorization: `KISI-LOGIN ${key}` } };
    const first = await fetch(`${baseUrl}${url}`, auth);
    expect(first.headers.get('x-collection-range')).toMatch(new RegExp(`^0-${def - 1}/\\d+$`));
    const capped = await fetch(`${baseUrl}${url}?limit=100000&offset=3`, auth);
    expect(capped.headers.get('x-collection-range')).toMatch(new RegExp(`^3-${max + 2}/\\d+$`));
    const total = Number(first.headers.get('x-collection-range')!.split('/')[1]);
    const items = (await first.json()) as unknown[];
    expect(items.length).toBe(Math.min(def, total));
  });

  it('unknown endpoints answer Kisi 404 body', async () => {
    const res = await fetch(`${baseUrl}/user_export_reporters`, { headers: { Authorization: `KISI-LOGIN ${key}` } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: '000404', error: 'The endpoint does not exist, please check your request.' });
  });
});
