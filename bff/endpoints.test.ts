import fs from 'node:fs';
import path from 'node:path';
import * as v from 'valibot';
import { isEndpoint, type Endpoint, describeEndpoint } from './contracts/endpoint.contract';
import { errorStatuses } from './lib/openapi';
import { createTestContext, type TestContext } from './test-support/test-app';

/** Every endpoint object any contract file exports, found by reading the folder (a new contract file is checked without anyone adding it here). */
function contractEndpoints(): Map<Endpoint, string> {
  const dir = path.join(process.cwd(), 'bff/contracts');
  const found = new Map<Endpoint, string>();
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.contract.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the contract files are found at run time
    const exports = require(path.join(dir, file)) as Record<string, unknown>;
    for (const [exportName, value] of Object.entries(exports)) {
      if (typeof value !== 'object' || value === null) continue;
      for (const [name, candidate] of Object.entries(value)) if (isEndpoint(candidate)) found.set(candidate, `${file} ${exportName}.${name}`);
    }
  }
  return found;
}

let ctx: TestContext;
let mounted: readonly Endpoint[];
beforeAll(async () => {
  ctx = await createTestContext({}, {}, { emulator: true });
  mounted = ctx.endpoints;
});
afterAll(() => ctx.close());

describe('endpoints and handlers', () => {
  it('mounts a handler (or the Kisi proxy) for every endpoint a contract describes, and no handler without one', () => {
    const described = contractEndpoints();
    expect(described.size).toBeGreaterThan(30);
    const unhandled = [...described].filter(([endpoint]) => !mounted.includes(endpoint)).map(([, where]) => where);
    expect(unhandled).toEqual([]);
    const undescribed = mounted.filter((endpoint) => !described.has(endpoint)).map(describeEndpoint);
    expect(undescribed).toEqual([]);
  });

  it('describes each method and path once, and each path parameter in its params schema', () => {
    const seen = mounted.map(describeEndpoint);
    expect(new Set(seen).size).toBe(seen.length);
    for (const endpoint of mounted) {
      const names = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const described = endpoint.params && 'entries' in endpoint.params ? Object.keys((endpoint.params as v.ObjectSchema<v.ObjectEntries, undefined>).entries) : [];
      expect({ endpoint: describeEndpoint(endpoint), params: described.sort() }).toEqual({ endpoint: describeEndpoint(endpoint), params: names.sort() });
    }
  });
});

describe('GET /api/openapi.json', () => {
  it('is public and lists every endpoint with its parameters, body, success and error answers', async () => {
    const res = await fetchDocument();
    expect(res.openapi).toBe('3.1.0');
    for (const endpoint of mounted) {
      const operation = res.paths[endpoint.path.replace(/:(\w+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
      expect(operation ? describeEndpoint(endpoint) : `missing: ${describeEndpoint(endpoint)}`).toBe(describeEndpoint(endpoint));
      expect(Object.keys(operation!.responses).sort()).toEqual([String(endpoint.status ?? 200), ...errorStatuses(endpoint).map(String)].sort());
      if (endpoint.body) expect(operation!.requestBody).toBeDefined();
    }
  });

  it('describes inputs as they are sent (query numbers as text) and answers as they come back', async () => {
    const doc = await fetchDocument();
    const listMembers = doc.paths['/api/gym/users']!.get!;
    const page = listMembers.parameters.find((p: { name: string }) => p.name === 'page');
    expect(page).toMatchObject({ in: 'query', required: false, schema: { type: 'string' } });
    const getMember = doc.paths['/api/gym/users/{id}']!.get!;
    expect(getMember.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    expect(getMember.responses['200'].content['application/json'].schema).toMatchObject({ type: 'object', required: expect.arrayContaining(['email', 'membership']) });
    expect(getMember.responses['404'].content['application/problem+json']).toBeDefined();
    expect(doc.paths['/api/gym/users']!.post!.requestBody.content['application/json'].schema.properties.email).toMatchObject({ type: 'string', format: 'email' });
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document's shape is checked field by field above
async function fetchDocument(): Promise<any> {
  const { default: request } = await import('supertest');
  const res = await request(ctx.app).get('/api/openapi.json').expect(200);
  return res.body;
}
