import * as v from 'valibot';
import { endpoint } from '@contracts/endpoint.contract';
import { authApi } from '@contracts/auth.contract';
import { loginApi } from '@contracts/login.contract';
import { gymApi } from '@contracts/gym.contract';
import { kisiApi } from '@contracts/kisi.contract';
import { statusApi } from '@contracts/status.contract';
import { ContractError } from './answer-check';
import { ApiError, NetworkError, call, callWithResponse, errorMessage, fetcherFor, isServiceUnavailable, keyFor, unavailableRetryMs } from './api-client';

function replyWith(status: number, body: string, contentType = 'application/json') {
  return jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(status === 204 ? null : body, { status, headers: { 'Content-Type': contentType } }));
}

afterEach(() => jest.restoreAllMocks());

/** A test endpoint whose answer may be anything (JSON or text). */
const anything = endpoint({ method: 'GET', path: '/api/anything', summary: 'test', access: 'public', response: v.unknown() });

const OWNER = { id: 7, name: 'Ada', email: 'ada@gym.test', phone: null, gymName: 'North', memberCount: 2, createdAt: '2026-01-01T00:00:00Z' };

describe('a 503 (the service briefly unavailable)', () => {
  const unavailable = (retryAfter?: string) =>
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response('{"type":"about:blank","title":"Service Unavailable","status":503,"detail":"The service is briefly unavailable. Try again in a few seconds."}', {
        status: 503,
        headers: { 'Content-Type': 'application/problem+json', ...(retryAfter === undefined ? {} : { 'Retry-After': retryAfter }) },
      }),
    );

  it('carries the problem and the Retry-After (seconds or a date) as how long to wait', async () => {
    unavailable('7');
    const error = (await call(anything).catch((e: unknown) => e)) as ApiError;
    expect(isServiceUnavailable(error)).toBe(true);
    expect(error.retryAfterMs).toBe(7000);
    expect(unavailableRetryMs(error)).toBe(7000);
    expect(error.message).toBe('The service is briefly unavailable. Try again in a few seconds.');
    jest.restoreAllMocks();
    unavailable(new Date(Date.now() + 30_000).toUTCString());
    const dated = (await call(anything).catch((e: unknown) => e)) as ApiError;
    expect(dated.retryAfterMs).toBeGreaterThan(28_000);
    expect(dated.retryAfterMs).toBeLessThanOrEqual(30_000);
  });

  it('waits 5 s when the header is missing or unreadable, never less than 1 s nor more than a minute', async () => {
    for (const [header, wait] of [[undefined, 5000], ['soon', 5000], ['0', 1000], ['3600', 60_000]] as const) {
      jest.restoreAllMocks();
      unavailable(header);
      expect(unavailableRetryMs((await call(anything).catch((e: unknown) => e)) as ApiError)).toBe(wait);
    }
  });
});

describe('call (the spec rules: body as text; not ok throws; ok parses JSON, else text)', () => {
  it('parses a JSON body', async () => {
    replyWith(200, '{"name":"Frontdesk","n":2}');
    await expect(call(anything)).resolves.toEqual({ name: 'Frontdesk', n: 2 });
  });

  it('falls back to the text when the body is not JSON', async () => {
    replyWith(200, 'plain words', 'text/plain');
    await expect(call(anything)).resolves.toBe('plain words');
  });

  it('builds the URL from the path params and the query, leaving out empty values', async () => {
    const spy = replyWith(200, JSON.stringify(OWNER));
    await call(gymApi.getOwner, { params: { id: 7 } });
    expect(spy.mock.calls[0]![0]).toBe('/api/gym/owners/7');
    const key = keyFor(gymApi.listMembers, { query: { page: 2, pageSize: 10, query: '', membership: 'paused' } });
    expect(key).toEqual(['GET /api/gym/users', { params: {}, query: { page: '2', pageSize: '10', membership: 'paused' } }]);
    await fetcherFor(gymApi.listMembers)(key).catch(() => undefined);
    expect(spy.mock.calls[1]![0]).toBe('/api/gym/users?page=2&pageSize=10&membership=paused');
  });

  it('hands the response headers to a caller that asks (Kisi paging)', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('[]', { status: 200, headers: { 'Content-Type': 'application/json', 'X-Collection-Range': '*/0' } }));
    const { data, headers, status } = await callWithResponse(kisiApi.listGroups, { query: { limit: 10 } });
    expect(data).toEqual([]);
    expect(status).toBe(200);
    expect(headers.get('X-Collection-Range')).toBe('*/0');
  });

  it('gives undefined for an empty body (204)', async () => {
    replyWith(204, '');
    await expect(call(authApi.logout)).resolves.toBeUndefined();
  });

  it("checks the answer against the endpoint's schema and names the endpoint and field when it does not fit", async () => {
    replyWith(200, JSON.stringify({ ...OWNER, memberCount: 'two' }));
    const error = await call(gymApi.getOwner, { params: { id: 7 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractError);
    expect((error as Error).message).toBe('GET /api/gym/owners/:id answered a body its contract does not allow: memberCount: Invalid type: Expected number but received "two"');
    replyWith(200, JSON.stringify([{ id: 1 }]));
    await expect(fetcherFor(kisiApi.listGroups)(keyFor(kisiApi.listGroups))).rejects.toThrow(/^GET \/api\/kisi\/groups answered a body its contract does not allow: 0\.resource_type/);
  });

  it('throws an ApiError with the status, the raw body and the parsed problem', async () => {
    const body = JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Broken on purpose' });
    replyWith(500, body, 'application/problem+json');
    const error = await call(statusApi.bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, body, url: '/api/bad', message: 'Broken on purpose' });
    expect((error as ApiError).problem?.title).toBe('Internal Server Error');
  });

  it('keeps a non-JSON error body as the message and has no problem', async () => {
    replyWith(502, 'Bad gateway from the proxy', 'text/plain');
    const error = (await call(anything).catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.problem).toBeUndefined();
    expect(error.message).toBe('Bad gateway from the proxy');
    expect(errorMessage(error)).toBe('Bad gateway from the proxy');
  });

  it('sends bodies as JSON with Content-Type: application/json (the BFF CSRF rule)', async () => {
    const spy = replyWith(200, '{"user":{"id":1,"email":"a@b.c","name":"A","role":"staff"}}');
    await call(loginApi.login, { body: { email: 'a@b.c', password: 'pw' } });
    const [url, init] = spy.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(init).toMatchObject({ method: 'POST', body: '{"email":"a@b.c","password":"pw"}', credentials: 'same-origin' });
    expect((init!.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('adds the headers a call asks for, keeping its own Accept and Content-Type', async () => {
    const spy = replyWith(200, '{"user":{"id":1,"email":"a@b.c","name":"A","role":"staff"}}');
    await call(loginApi.login, { body: { email: 'a@b.c', password: 'pw' }, headers: { 'Idempotency-Key': 'key-12345678', Accept: 'text/html', 'Content-Type': 'text/plain' } });
    expect(spy.mock.calls[0]![1]!.headers).toEqual({ 'Idempotency-Key': 'key-12345678', Accept: 'application/json', 'Content-Type': 'application/json' });
  });

  it('sends no Content-Type when there is no body', async () => {
    const spy = replyWith(204, '');
    await call(authApi.logout);
    expect((spy.mock.calls[0]![1]!.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('turns a network failure into a NetworkError saying the server is unreachable', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await call(statusApi.status).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('Could not reach the server (Failed to fetch)');
  });
});
