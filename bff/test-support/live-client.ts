import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import type { Role } from '../contracts/endpoint.contract';
import { TEST_PASSWORD, type TestContext } from './test-app';

/** What tests need to act as a signed-in person: an agent for requests, and a cookie of their own for raw streams. */
export interface Person {
  agent: Awaited<ReturnType<TestContext['loginAs']>>;
  id: number;
  name: string;
  /** A session cookie of this person's own (`sid=…`), for opening event streams. */
  cookie: string;
}

/** A new account of `role`, signed in twice: once in a supertest agent, once for a bare cookie. */
export async function signInPerson(ctx: TestContext, role: Role, email: string): Promise<Person> {
  const agent = await ctx.loginAs(role, email);
  const { user } = (await agent.get('/api/auth/getAuth').expect(200)).body as { user: { id: number; name: string } };
  const login = await request(ctx.app).post('/api/auth/login').send({ email, password: TEST_PASSWORD }).expect(200);
  return { agent, id: user.id, name: user.name, cookie: String(login.headers['set-cookie']).split(';')[0] ?? '' };
}

/** The test app on a real port (streams need one); `close` ends the open streams first. */
export async function listenOnAnyPort(ctx: TestContext): Promise<{ base: string; server: http.Server; close: () => Promise<void> }> {
  const server = await new Promise<http.Server>((resolve) => {
    const s = ctx.app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    server,
    close: async () => {
      ctx.endStreams();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Runs `work` while the live-event log cannot be written (its table renamed away), then puts it back. */
export async function whileLiveEventLogIsDown<T>(ctx: TestContext, work: () => PromiseLike<T>): Promise<T> {
  await ctx.database.db.schema.alterTable('live_events').renameTo('live_events_down').execute();
  try {
    return await work();
  } finally {
    await ctx.database.db.schema.alterTable('live_events_down').renameTo('live_events').execute();
  }
}

/** The newest id in the live-event log (0 when it is empty): a Last-Event-ID to resume after. */
export const newestLiveEventId = async (ctx: TestContext) =>
  Number((await ctx.database.db.selectFrom('live_events').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst())?.id ?? 0);

export interface Frame {
  id?: string;
  event: string;
  data: unknown;
}

/**
 * A real Server-Sent Events connection to `url`; frames are parsed as they arrive. `cookie` empty: a
 * visitor's (a public stream); `headers`: more of the request's (Last-Event-ID, X-Forwarded-For).
 */
export async function openSseStream(url: string, cookie: string, headers: Record<string, string> = {}) {
  let text = '';
  let ended = false;
  /** Says 'news' as each piece of the stream arrives, and when it ends. */
  const news = new EventEmitter();
  const req = http.get(url, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  req.on('error', () => {});
  const { status, type } = await new Promise<{ status: number; type: string }>((resolve) => {
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => news.emit('news', (text += chunk)));
      res.on('end', () => news.emit('news', (ended = true)));
      // A stream the server ends (or lets go) may close without a clean end.
      res.on('close', () => news.emit('news', (ended = true)));
      resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']) });
    });
  });
  /** Resolves once `done` holds, looking again as each piece arrives; fails when the stream ends first. */
  const until = async (done: () => boolean, what: string) => {
    while (!done()) {
      if (ended) throw new Error(`The stream ended without ${what}; it had:\n${text}`);
      await once(news, 'news');
    }
  };
  const frames = (): Frame[] =>
    text
      .split('\n\n')
      .slice(0, -1) // the last piece is not complete yet
      .flatMap((block) => {
        const field = (name: string) => block.split('\n').find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
        const event = field('event');
        const data = field('data');
        return event && data !== undefined ? [{ id: field('id'), event, data: JSON.parse(data) as unknown }] : [];
      });
  /** The first frame that matches, once it has come; fails the test when the stream ends without one. */
  const next = async (matches: (frame: Frame) => boolean): Promise<Frame> => {
    let found: Frame | undefined;
    await until(() => (found = frames().find(matches)) !== undefined, 'a matching event');
    return found!;
  };
  // Subscribed once the stream has opened (the retry line comes after the subscription).
  if (status === 200) await until(() => text.includes('retry:'), 'its retry line');
  /** Resolves once the server has ended the stream. */
  const whenEnded = async () => {
    while (!ended) await once(news, 'news');
  };
  return { status, type, text: () => text, frames, next, ended: () => ended, whenEnded, close: () => req.destroy() };
}
