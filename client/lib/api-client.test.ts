import { ApiError, NetworkError, api, errorMessage, request, requestWithHeaders } from './api-client';

function replyWith(status: number, body: string, contentType = 'application/json') {
  return jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(status === 204 ? null : body, { status, headers: { 'Content-Type': contentType } }));
}

afterEach(() => jest.restoreAllMocks());

describe('api client (spec §7: body as text; not ok throws; ok parses JSON, else text)', () => {
  it('parses a JSON body', async () => {
    replyWith(200, '{"name":"Frontdesk","n":2}');
    await expect(api.get('/api')).resolves.toEqual({ name: 'Frontdesk', n: 2 });
  });

  it('falls back to the text when the body is not JSON', async () => {
    replyWith(200, 'plain words', 'text/plain');
    await expect(api.get('/x')).resolves.toBe('plain words');
  });

  it('hands the response headers to a caller that asks (Kisi paging)', async () => {
    jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('[1,2]', { status: 200, headers: { 'Content-Type': 'application/json', 'X-Collection-Range': '0-1/7' } }));
    const { data, headers, status } = await requestWithHeaders<number[]>('/api/kisi/users');
    expect(data).toEqual([1, 2]);
    expect(status).toBe(200);
    expect(headers.get('X-Collection-Range')).toBe('0-1/7');
  });

  it('gives undefined for an empty body (204)', async () => {
    replyWith(204, '');
    await expect(api.post('/api/auth/logout')).resolves.toBeUndefined();
  });

  it('throws an ApiError with the status, the raw body and the parsed problem', async () => {
    const body = JSON.stringify({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'Broken on purpose' });
    replyWith(500, body, 'application/problem+json');
    const error = await api.get('/api/bad').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, body, url: '/api/bad', message: 'Broken on purpose' });
    expect((error as ApiError).problem?.title).toBe('Internal Server Error');
  });

  it('keeps a non-JSON error body as the message and has no problem', async () => {
    replyWith(502, 'Bad gateway from the proxy', 'text/plain');
    const error = (await api.get('/api/x').catch((e: unknown) => e)) as ApiError;
    expect(error.status).toBe(502);
    expect(error.problem).toBeUndefined();
    expect(error.message).toBe('Bad gateway from the proxy');
    expect(errorMessage(error)).toBe('Bad gateway from the proxy');
  });

  it('sends bodies as JSON with Content-Type: application/json (the BFF CSRF rule)', async () => {
    const spy = replyWith(200, '{"user":{}}');
    await api.post('/api/auth/login', { email: 'a@b.c', password: 'pw' });
    const [url, init] = spy.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(init).toMatchObject({ method: 'POST', body: '{"email":"a@b.c","password":"pw"}', credentials: 'same-origin' });
    expect((init!.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('sends no Content-Type when there is no body', async () => {
    const spy = replyWith(204, '');
    await request('/api/auth/logout', { method: 'POST' });
    expect((spy.mock.calls[0]![1]!.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });

  it('turns a network failure into a NetworkError saying the server is unreachable', async () => {
    jest.spyOn(globalThis, 'fetch').mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await api.get('/api').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toBe('Could not reach the server (Failed to fetch)');
  });
});
