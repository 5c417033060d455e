import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import os from 'node:os';
import request from 'supertest';
import { stopWallClock } from './test-support/clock';
import { listenOnAnyPort, signInPerson } from './test-support/live-client';
import { createTestContext, withTestContext, type TestContext } from './test-support/test-app';
import { testEngine } from './test-support/test-database';

let ctx: TestContext;
const STARTED_AT = Date.parse('2026-05-01T08:00:00.000Z');
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-static-'));
beforeAll(async () => {
  // The static server indexes the pre-compressed files when the app is built, as after `npm run build`.
  const assets = path.join(staticDir, 'assets');
  fs.mkdirSync(assets, { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Frontdesk</title><div id="root"></div>');
  const js = 'console.log("frontdesk");'.repeat(50);
  fs.writeFileSync(path.join(assets, 'main-abc123.js'), js);
  fs.writeFileSync(path.join(assets, 'main-abc123.js.gz'), zlib.gzipSync(js));
  fs.writeFileSync(path.join(assets, 'main-abc123.js.br'), zlib.brotliCompressSync(js));
  ctx = await createTestContext({ STATIC_DIR: staticDir }, { startedAt: new Date(STARTED_AT) });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

describe('service status', () => {
  it('GET /api describes the service', async () => {
    const res = await request(ctx.app).get('/api').expect(200);
    expect(res.body).toMatchObject({ name: 'Frontdesk', version: '0.0.0-test', status: 'ok', database: { engine: testEngine() }, kisi: { mode: 'emulator' } });
  });

  it('GET /api tells when the server started and how long it has been up, in whole seconds', async () => {
    const clock = stopWallClock(STARTED_AT + 90_400);
    try {
      const status = async () => ((await request(ctx.app).get('/api').expect(200)).body as { startedAt: string; uptimeSeconds: number });
      expect(await status()).toMatchObject({ startedAt: '2026-05-01T08:00:00.000Z', uptimeSeconds: 90 });
      clock.advance(3_600_000);
      expect(await status()).toMatchObject({ startedAt: '2026-05-01T08:00:00.000Z', uptimeSeconds: 3690 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('GET /api names the public address (the first of PUBLIC_ORIGIN) for links that leave the building, and null without one', async () => {
    expect((await request(ctx.app).get('/api').expect(200)).body).toMatchObject({ publicOrigin: null });
    await withTestContext({ env: { PUBLIC_ORIGIN: 'https://Venue.Example.com/, http://10.0.0.5:3000' } }, async (configured) => {
      const res = await request(configured.app).get('/api').set('Host', 'venue.example.com').expect(200);
      expect(res.body).toMatchObject({ publicOrigin: 'https://venue.example.com' });
    });
  });

  it('GET /api/bad fails on purpose with a 500 problem and no stack trace', async () => {
    const res = await request(ctx.app).get('/api/bad').expect(500);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500, detail: expect.any(String) });
    expect(res.text).not.toMatch(/at .*\.ts:\d+/);
  });
});

describe('HTTP errors', () => {
  it('answers an unknown /api path with a 404 problem', async () => {
    const res = await request(ctx.app).get('/api/x').expect(404);
    expect(res.body).toMatchObject({ status: 404, title: 'Not Found', detail: 'No API endpoint GET /api/x.' });
    await request(ctx.app).delete('/api/nothing/here').expect(404);
  });

  it('answers malformed JSON with a 400 problem', async () => {
    const res = await request(ctx.app).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email": ').expect(400);
    expect(res.body).toMatchObject({ status: 400, detail: 'The request body is not valid JSON.' });
  });

  it('answers an oversize body with a 413 problem', async () => {
    const res = await request(ctx.app).post('/api/auth/login').send({ email: 'a@b.co', password: 'x'.repeat(200_000) }).expect(413);
    expect(res.body).toMatchObject({ status: 413, detail: 'The request body is too large.' });
  });

  it('answers wrong types with a 400 listing each field', async () => {
    const res = await request(ctx.app).post('/api/auth/login').send({ email: ['a@b.co'], password: 12 }).expect(400);
    expect(res.body.errors.map((e: { path: string }) => e.path)).toEqual(['body.email', 'body.password']);
  });

  it('stays up after a burst of bad requests', async () => {
    await Promise.all(Array.from({ length: 20 }, () => request(ctx.app).post('/api/auth/login').set('Content-Type', 'application/json').send('nope')));
    await request(ctx.app).get('/api').expect(200);
  });
});

describe('CSRF rule and origins', () => {
  it('rejects a state-changing request whose body is not JSON — a form, text, or a multipart form no endpoint takes', async () => {
    const res = await request(ctx.app).post('/api/auth/login').set('Content-Type', 'application/x-www-form-urlencoded').send('email=a@b.co&password=x').expect(415);
    expect(res.body).toMatchObject({ status: 415, detail: 'Send the request body as application/json.' });
    await request(ctx.app).post('/api/auth/login').set('Content-Type', 'text/plain').send('{"email":"a@b.co"}').expect(415);
    // What an HTML form on any site can send: it must not log a user out.
    const agent = await ctx.loginAs('staff');
    await agent.post('/api/auth/logout').field('x', '1').expect(415);
    await agent.get('/api/auth/getAuth').expect(200);
  });

  it('rejects a cross-origin state-changing request, by Origin or, without it, by Referer', async () => {
    const agent = await ctx.loginAs('staff');
    const res = await agent.post('/api/auth/logout').set('Origin', 'https://evil.example').expect(403);
    expect(res.body.detail).toBe('Cross-origin requests are not allowed.');
    await agent.post('/api/auth/logout').set('Referer', 'https://evil.example/page').expect(403);
    await agent.post('/api/auth/logout').set('Origin', 'null').expect(403);
    await agent.get('/api/auth/getAuth').expect(200);
  });

  it('refuses a request whose Host and Origin both name another site (DNS rebinding), and answers no page for it', async () => {
    const agent = await ctx.loginAs('staff');
    const res = await agent.post('/api/auth/logout').set('Host', 'frontdesk.test').set('Origin', 'http://frontdesk.test').expect(421);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    await request(ctx.app).get('/api/auth/getAuth').set('Host', 'rebound.example:3000').expect(421);
    await request(ctx.app).get('/').set('Host', 'rebound.example:3000').expect(421);
    await agent.get('/api/auth/getAuth').expect(200);
  });

  it('accepts a request from the app\'s own origin: loopback by default, the configured ones with PUBLIC_ORIGIN', async () => {
    const agent = await ctx.loginAs('staff');
    await agent.post('/api/auth/logout').set('Origin', 'http://localhost:5173').expect(204);
    await withTestContext({ env: { PUBLIC_ORIGIN: 'https://desk.example.com, http://frontdesk.test' } }, async (configured) => {
      const desk = await configured.loginAs('staff');
      await desk.post('/api/auth/logout').set('Host', 'desk.example.com').set('Origin', 'http://desk.example.com').expect(403);
      await desk.get('/api/auth/getAuth').set('Host', 'desk.example.org').expect(421);
      await desk.post('/api/auth/logout').set('Host', 'frontdesk.test').set('Origin', 'http://frontdesk.test').expect(204);
    });
  });
});

describe('security headers and logs', () => {
  it('sends a CSP that allows only the app itself for scripts, connections and pictures', async () => {
    const res = await request(ctx.app).get('/api').expect(200);
    expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/connect-src 'self'/);
    // Pictures of other sites come through the BFF's picture proxies (decision 0068); the QR codes are data: addresses.
    expect(res.headers['content-security-policy']).toMatch(/img-src 'self' data: blob:;/);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('static SPA', () => {
  it('answers a page of the app with index.html, never cached', async () => {
    for (const url of ['/', '/gymowners/7', '/shell/webhook?page=2']) {
      const res = await request(ctx.app).get(url).expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toContain('<div id="root">');
    }
  });

  it('serves hashed assets brotli- or gzip-compressed with immutable caching', async () => {
    const br = await request(ctx.app).get('/assets/main-abc123.js').set('Accept-Encoding', 'br, gzip').expect(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const gz = await request(ctx.app).get('/assets/main-abc123.js').set('Accept-Encoding', 'gzip').expect(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/javascript/);
  });

  it('compresses a JSON answer over 1 KB for a browser that accepts it, and leaves a small one and an event stream as they are', async () => {
    const staff = await signInPerson(ctx, 'staff', 'compressed@frontdesk.test');
    const document = await request(ctx.app).get('/api/openapi.json').set('Accept-Encoding', 'gzip').expect(200);
    expect(document.headers['content-encoding']).toBe('gzip');
    expect(document.body).toHaveProperty('openapi');
    expect((await request(ctx.app).get('/api/openapi.json').set('Accept-Encoding', 'br').expect(200)).headers['content-encoding']).toBe('br');
    expect((await request(ctx.app).get('/api/openapi.json').set('Accept-Encoding', 'identity').expect(200)).headers['content-encoding']).toBeUndefined();
    expect((await request(ctx.app).get('/api').set('Accept-Encoding', 'gzip').expect(200)).headers['content-encoding']).toBeUndefined();

    const listening = await listenOnAnyPort(ctx);
    try {
      const stream = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get(`${listening.base}/api/events`, { headers: { cookie: staff.cookie, 'accept-encoding': 'gzip, br' } }, resolve).on('error', reject),
      );
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['content-encoding']).toBeUndefined();
      // The first frame arrives at once, not held back in a compression buffer.
      const first = await new Promise<string>((resolve) => stream.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
      expect(first).toMatch(/^retry: \d+/);
      stream.destroy();
    } finally {
      await listening.close();
    }
  });

  it('answers a missing hashed asset with 404, not the page', async () => {
    await request(ctx.app).get('/assets/gone-999.js').expect(404);
  });
});
