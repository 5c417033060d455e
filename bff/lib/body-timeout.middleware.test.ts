import net from 'node:net';
import type { Server } from 'node:http';
import { createTestContext, type TestContext } from '../test-support/test-app';

/**
 * A request body that stops arriving is given up after the idle limit (here 300 ms; 30 s in
 * production) with a 408 problem and the connection closed, instead of being held for Node's 5
 * minutes; a body that keeps coming, however slowly, is read to its end, and the connection then
 * serves its next request as any other.
 */
const IDLE_MS = 300;
let ctx: TestContext;
let server: Server;
let port: number;
beforeAll(async () => {
  ctx = await createTestContext({}, { bodyIdleMs: IDLE_MS });
  server = ctx.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await ctx.close();
});

const LOGIN = JSON.stringify({ email: 'nobody@frontdesk.test', password: 'not-the-password' });
const loginHead = (length: number, connection = 'keep-alive') =>
  `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: ${connection}\r\n\r\n`;

/** A connection of its own: what it has received so far, and whether the server has closed it. */
function connect() {
  const socket = net.connect(port, '127.0.0.1');
  const state = { received: '', closed: false };
  socket.on('data', (chunk: Buffer) => (state.received += chunk.toString()));
  socket.on('close', () => (state.closed = true));
  socket.on('error', () => undefined);
  return { socket, state };
}
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function until(check: () => boolean, timeoutMs = 5_000) {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms`);
    await wait(20);
  }
}
const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);

it('answers 408 (a problem) to a body shorter than its Content-Length once it has stopped arriving, and closes the connection', async () => {
  const { socket, state } = connect();
  const started = Date.now();
  socket.write(loginHead(LOGIN.length + 50) + LOGIN);
  await until(() => state.closed);
  const took = Date.now() - started;
  expect(statusOf(state.received)).toBe(408);
  expect(state.received).toMatch(/^content-type: application\/problem\+json/im);
  expect(state.received).toMatch(/^connection: close/im);
  const problem = JSON.parse(state.received.slice(state.received.indexOf('\r\n\r\n') + 4)) as { status: number; detail: string };
  expect(problem).toMatchObject({ status: 408, detail: 'The request body stopped arriving (nothing for 300 ms): send it again.' });
  // Given up at the idle limit, not held for minutes.
  expect(took).toBeGreaterThanOrEqual(IDLE_MS - 50);
  expect(took).toBeLessThan(5_000);
});

it('reads a body that keeps coming slowly, longer in all than the idle limit, and the connection then serves its next request after a pause', async () => {
  const { socket, state } = connect();
  socket.write(loginHead(LOGIN.length));
  // One piece every 100 ms: about a second in all, never idle for the limit.
  for (let at = 0; at < LOGIN.length; at += 6) {
    socket.write(LOGIN.slice(at, at + 6));
    await wait(100);
  }
  await until(() => statusOf(state.received) > 0);
  expect(statusOf(state.received)).toBe(401);
  // The limit was for the body only: a keep-alive connection idle for longer is still open, and answers.
  await wait(IDLE_MS * 2);
  expect(state.closed).toBe(false);
  state.received = '';
  socket.write('GET /api/health/live HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  await until(() => state.closed);
  expect(statusOf(state.received)).toBe(200);
});
