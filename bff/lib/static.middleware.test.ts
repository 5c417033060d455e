import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { authApi, type SessionUser } from '../contracts/auth.contract';
import { gymApi } from '../contracts/gym.contract';
import { statusApi } from '../contracts/status.contract';
import { pages } from '../../pages/pages';
import { spaMiddleware } from './static.middleware';
import { createTestContext, type TestContext } from '../test-support/test-app';

/**
 * The history fallback answers honestly: every page of the app is index.html with 200; an address
 * that is no page is index.html too (the app renders its not-found screen) but with 404.
 */
let ctx: TestContext;
const staticDir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-spa-'));
const INDEX = '<!doctype html><title>Frontdesk</title><div id="root"></div>';

beforeAll(async () => {
  fs.mkdirSync(path.join(staticDir, 'assets'));
  fs.writeFileSync(path.join(staticDir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(staticDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  ctx = await createTestContext({ STATIC_DIR: staticDir });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(staticDir, { recursive: true, force: true });
});

const filled = (pattern: string) => pattern.replace(/:[A-Za-z_]\w*/g, '12');

describe('the SPA fallback', () => {
  it('answers every page of the contract with the app and 200', async () => {
    for (const { path: pattern } of Object.values(pages)) {
      const res = await request(ctx.app).get(filled(pattern));
      expect([pattern, res.status]).toEqual([pattern, 200]);
      expect(res.text).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers a page however the browser spells it: trailing slash, case, percent-encoding, query', async () => {
    for (const url of ['/shell/nuhs/basic/', '/shell/nuhs/basic', '/about/', '/About', '/abou%74', '/pieces/10270-1', '/pokemon/mr.%20mime', '/shell/webhook?page=2', '/shell/posts/1/deep']) {
      expect([url, (await request(ctx.app).get(url)).status]).toEqual([url, 200]);
    }
  });

  it('answers an address that is no page with the app (its not-found screen) and 404', async () => {
    for (const url of ['/no/such/page', '/shell/upload', '/shell/gymowner', '/shell/posts/1/shallow', '/aboutx', '/kisi/users/1/2', '/shell//api']) {
      const res = await request(ctx.app).get(url);
      expect([url, res.status]).toEqual([url, 404]);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.text).toBe(INDEX);
    }
  });

  it('never turns the 404 into a 304 on a revisit', async () => {
    const page = await request(ctx.app).get('/about').expect(200);
    const validators = { 'If-None-Match': String(page.headers.etag), 'If-Modified-Since': String(page.headers['last-modified']) };
    await request(ctx.app).get('/about').set(validators).expect(304);
    const res = await request(ctx.app).get('/no/such/page').set(validators).expect(404);
    expect(res.text).toBe(INDEX);
  });

  it('answers HEAD as GET', async () => {
    await request(ctx.app).head('/about').expect(200);
    await request(ctx.app).head('/no/such/page').expect(404);
  });

  it('leaves files, missing assets and the API as they were', async () => {
    await request(ctx.app).get('/favicon.svg').expect(200).expect('Content-Type', /svg/);
    const asset = await request(ctx.app).get('/assets/gone-999.js').expect(404);
    expect(asset.text).not.toContain('<div id="root">');
    const api = await request(ctx.app).get('/api/no/such/thing').expect(404);
    expect(api.headers['content-type']).toMatch(/application\/problem\+json/);
  });

  /** The request line exactly as written (an HTTP client would tidy `..` away): status, type and body. */
  async function rawGet(target: string, method = 'GET') {
    const server = ctx.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as net.AddressInfo;
      const text = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1', () => socket.write(`${method} ${target} HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`));
        let answer = '';
        socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
      const [head, body = ''] = text.split('\r\n\r\n');
      return { status: Number(head!.split(' ')[1]), type: /^content-type: (.*)$/im.exec(head!)?.[1] ?? '', body };
    } finally {
      server.close();
    }
  }

  it("answers what no route, file or page answers with the app's own not-found, never Express's HTML page", async () => {
    // A page's address (`..` and all): the app, whose router shows its not-found screen.
    for (const target of ['/assets/../x', '/x/../no-page']) expect([target, await rawGet(target)]).toEqual([target, { status: 404, type: expect.stringMatching(/^text\/html/), body: INDEX }]);
    // A missing file, or a method pages do not take: a problem, as the API's.
    for (const [method, target] of [['GET', '/assets/gone-999.js'], ['GET', '/assets/../assets/gone.css'], ['POST', '/about'], ['DELETE', '/no/such/page']] as const) {
      const answer = await rawGet(target, method);
      expect([method, target, answer.status, answer.type]).toEqual([method, target, 404, 'application/problem+json; charset=utf-8']);
      expect(JSON.parse(answer.body)).toEqual({ type: 'about:blank', title: 'Not Found', status: 404, detail: `Nothing at ${method} ${target}.` });
    }
  });
});

describe('the first load of a page, from the HTML', () => {
  const built = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-spa-built-'));
  const HTML = '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-1.js"></script></head><body><div id="root"></div></body></html>';
  let app: TestContext;
  beforeAll(async () => {
    fs.writeFileSync(path.join(built, 'index.html'), HTML);
    fs.writeFileSync(
      path.join(built, 'first-load.json'),
      JSON.stringify({
        pages: { '/pieces': { scripts: ['assets/pieces-list.route-1.js'], styles: ['assets/catalogue-1.css'] }, '/': { scripts: ['assets/home.route-1.js'], styles: [] } },
      }),
    );
    app = await createTestContext({ STATIC_DIR: built });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(built, { recursive: true, force: true });
  });

  const head = (html: string) => html.slice(0, html.indexOf('</head>'));

  it("names the page's own chunks and styles and the session read in the head, so the browser fetches them beside the entry", async () => {
    const res = await request(app.app).get('/pieces?q=brick').expect(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const links = head(res.text);
    expect(links).toContain('<link rel="preload" as="fetch" crossorigin href="/api/auth/session">');
    expect(links).toContain('<link rel="modulepreload" crossorigin href="/assets/pieces-list.route-1.js">');
    expect(links).toContain('<link rel="stylesheet" crossorigin href="/assets/catalogue-1.css">');
    expect(links).not.toContain('home.route');
    expect((await request(app.app).get('/').expect(200)).text).toContain('/assets/home.route-1.js');
  });

  it('revalidates the page (a revisit gets a 304) and answers an address that is no page with the HTML as built', async () => {
    const page = await request(app.app).get('/pieces').expect(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    await request(app.app).get('/pieces').set('If-None-Match', String(page.headers.etag)).expect(304);
    expect((await request(app.app).get('/no/such/page').expect(404)).text).toBe(HTML);
  });
});

describe("a page's first reads, in its HTML for the session that may make them", () => {
  const built = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-spa-reads-'));
  const HTML = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';
  const users: Record<string, SessionUser> = {
    runner: { id: 1, email: 'r@example.com', name: 'Runner', role: 'runner' },
    staff: { id: 2, email: 's@example.com', name: 'Staff', role: 'staff' },
  };
  const app = express().use(spaMiddleware(built, { userForToken: (token) => users[token] }));
  beforeAll(() => {
    fs.writeFileSync(path.join(built, 'index.html'), HTML);
    fs.writeFileSync(path.join(built, 'first-load.json'), JSON.stringify({ pages: {} }));
  });
  afterAll(() => fs.rmSync(built, { recursive: true, force: true }));

  const preloads = async (address: string, session?: string) => {
    const get = request(app).get(address);
    const res = await (session ? get.set('Cookie', `sid=${session}`) : get).expect(200);
    expect(res.headers.vary).toMatch(/Cookie/);
    return [...res.text.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
  };

  it('gives a visitor the session read and the public reads of a public page, and nothing of a page that needs a session', async () => {
    expect(await preloads('/')).toEqual([authApi.session.path, statusApi.status.path]);
    expect(await preloads('/about')).toEqual([authApi.session.path, statusApi.status.path]);
    expect(await preloads('/counter')).toEqual([authApi.session.path]);
    expect(await preloads('/shell/gymowner/users')).toEqual([authApi.session.path]);
    expect(await preloads('/gymowners/3')).toEqual([authApi.session.path]);
  });

  it("gives the desk a page's reads as its address asks them: its search, its id, and the staff shell's tab counts around it", async () => {
    const shell = ['/api/chat/channels', '/api/conversations/waiting'];
    // The member list names whether Kisi answers and how many members wait (its banner).
    expect(await preloads('/shell/gymowner/users', 'staff')).toEqual([authApi.session.path, ...shell, `${gymApi.listMembers.path}?page=0&pageSize=10`, gymApi.doorSyncStatus.path]);
    expect(await preloads('/shell/gymowner/users?page=2&query=ann&sort=-last_visit', 'staff')).toEqual([
      authApi.session.path,
      ...shell,
      `${gymApi.listMembers.path}?page=1&pageSize=10&query=ann&sort=-last_visit`,
      gymApi.doorSyncStatus.path,
    ]);
    // A member's page names the member (the layout's read), their door access and their attendance (the profile's).
    expect(await preloads('/shell/gymowner/users/7', 'staff')).toEqual([authApi.session.path, ...shell, '/api/gym/users/7', '/api/gym/users/7/access', '/api/gym/users/7/attendance']);
    expect(await preloads('/gymowners/3?page=2', 'staff')).toEqual([authApi.session.path, '/api/gym/owners/3', `${gymApi.listMembers.path}?page=1&pageSize=10&ownerId=3`]);
  });

  it("gives a runner the shell pages' reads a runner may make, and no guest help count (the desk's)", async () => {
    expect(await preloads('/shell/chat', 'runner')).toEqual([authApi.session.path, '/api/chat/channels']);
  });

  it('loads the page as a visitor’s when the session cannot be looked up (the database away): the page, not a 503 problem', async () => {
    const away = express().use(
      spaMiddleware(built, {
        userForToken: () => {
          throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        },
      }),
    );
    const awayAsync = express().use(spaMiddleware(built, { userForToken: () => Promise.reject(new Error('connect ECONNREFUSED')) }));
    for (const server of [away, awayAsync]) {
      const res = await request(server).get('/shell/gymowner/users').set('Cookie', 'sid=staff').expect(200);
      expect(res.type).toBe('text/html');
      expect([...res.text.matchAll(/rel="preload" as="fetch" crossorigin href="([^"]+)"/g)].map((m) => m[1])).toEqual([authApi.session.path]);
    }
  });

  it('names nothing for an address the page cannot have, nor for a role the page is not for, nor for an ended session', async () => {
    expect(await preloads('/gymowners/abc', 'staff')).toEqual([authApi.session.path]);
    expect(await preloads('/shell/gymowner/users', 'runner')).toEqual([authApi.session.path]);
    expect(await preloads('/shell/gymowner/users', 'ended')).toEqual([authApi.session.path]);
  });
});
