import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';

/**
 * SIGTERM while requests are in flight (each has sent its headers and half its body when the signal
 * comes) and an event stream is open: the stream ends cleanly (the browser reconnects elsewhere);
 * for the drain (SHUTDOWN_DRAIN_MS) the instance still answers, readiness saying 503 "stopping" so
 * that a balancer polling it takes the instance out first; then nothing new is accepted; every
 * request in flight gets its whole answer, and the process exits 0 long before the grace period is over.
 */
jest.setTimeout(60_000);

const ADMIN = { email: 'admin@stop.test', password: 'graceful-stop-admin-password' };
const IN_FLIGHT = 12;
const DRAIN_MS = 1500;

let dir: string;
let database: TestDatabase;
let bff: SpawnedBff;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-stop-'));
  database = await createTestDatabase(dir);
  // TRUST_PROXY: each login in flight comes from an address of its own, as many people's would (one address gets 10 tries at one account at a time, decision 0094).
  bff = await spawnBff({ DATABASE_URL: database.url, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, UPLOADS_DIR: path.join(dir, 'uploads'), SHUTDOWN_GRACE_MS: '20000', SHUTDOWN_DRAIN_MS: String(DRAIN_MS), LOG_LEVEL: 'warn', TRUST_PROXY: '1' });
});
afterAll(async () => {
  await bff?.stop();
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: string;
  complete: boolean;
}

/** A login whose body is sent in two halves: the first now, the second when `rest` is called. */
function slowLogin(url: string, address: string) {
  const body = JSON.stringify(ADMIN);
  const half = Math.floor(body.length / 2);
  let req!: http.ClientRequest;
  const answer = new Promise<Answer>((resolve, reject) => {
    req = http.request(`${url}/api/auth/login`, { method: 'POST', agent: false, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-Forwarded-For': address } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, complete: res.complete }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(body.slice(0, half));
  });
  return { answer, rest: () => req.end(body.slice(half)) };
}

/** An open `/api/events` stream: resolves when the server ends it, rejects when the connection is cut. */
function openStream(url: string, cookie: string) {
  return new Promise<{ opened: Promise<void>; ended: Promise<{ text: string; complete: boolean }> }>((resolve, reject) => {
    const req = http.get(`${url}/api/events`, { agent: false, headers: { Cookie: cookie, Accept: 'text/event-stream' } }, (res) => {
      let text = '';
      const opened = new Promise<void>((r) => res.once('data', () => r()));
      const ended = new Promise<{ text: string; complete: boolean }>((r, j) => {
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => r({ text, complete: res.complete }));
        res.on('error', j);
      });
      resolve({ opened, ended });
    });
    req.on('error', reject);
  });
}

it('ends the event streams cleanly, answers readiness 503 "stopping" for the drain, then refuses what comes, finishes every request in flight and exits 0', async () => {
  const login = await fetch(`${bff.url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const stream = await openStream(bff.url, cookie);
  await stream.opened;

  const inFlight = Array.from({ length: IN_FLIGHT }, (_, i) => slowLogin(bff.url, `198.51.100.${i + 1}`));
  // Every one of them has reached the server (its headers read, its body half there) before the signal.
  await new Promise((r) => setTimeout(r, 300));
  const exited = new Promise<number | null>((resolve) => bff.child.once('exit', (code) => resolve(code)));
  const signalled = Date.now();
  bff.child.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));

  // The stream was told to go elsewhere: ended by the server, not cut.
  const streamEnd = await stream.ended;
  expect(streamEnd.complete).toBe(true);
  // The drain: the instance still answers, and its readiness says it is going (each answer closing its connection).
  const ready = await fetch(`${bff.url}/api/health/ready`);
  expect(ready.status).toBe(503);
  expect(ready.headers.get('connection')).toBe('close');
  expect(((await ready.json()) as { errors: Array<{ path: string }> }).errors.map((e) => e.path)).toEqual(['stopping']);
  expect((await fetch(`${bff.url}/api/health/live`)).status).toBe(200);
  expect((await fetch(`${bff.url}/api/pt/stalls`)).status).toBe(200);
  // Then nothing new gets in: the listener closes once the drain is over.
  let refusedAt = 0;
  for (const deadline = Date.now() + DRAIN_MS + 5_000; !refusedAt && Date.now() < deadline; await new Promise((r) => setTimeout(r, 50))) {
    if (!(await fetch(`${bff.url}/api/health/live`).then(() => true, () => false))) refusedAt = Date.now();
  }
  expect(refusedAt - signalled).toBeGreaterThanOrEqual(DRAIN_MS);
  expect(refusedAt - signalled).toBeLessThan(DRAIN_MS + 2_000);

  inFlight.forEach((request) => request.rest());
  const answers = await Promise.allSettled(inFlight.map((request) => request.answer));
  const cutOff = answers.filter((a) => a.status === 'rejected' || !a.value.complete);
  expect(cutOff).toEqual([]);
  expect(answers.map((a) => (a.status === 'fulfilled' ? a.value.status : 0))).toEqual(Array(IN_FLIGHT).fill(200));

  expect(await exited).toBe(0);
  expect(Date.now() - signalled).toBeLessThan(10_000);
  expect(bff.output()).toContain('SIGTERM: readiness says stopping; finishing requests in flight, then stopping.');
});
