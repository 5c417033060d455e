import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './server';
import { listenFirst, StartError, startFailureLine } from './start-up';
import { spawnBff, spawnBffToExit, standInClient, type FailedStart } from './test-support/spawn-bff';
import { createTestDatabase, type TestDatabase } from './test-support/test-database';
import { freePort } from './test-support/free-port';

/**
 * A start that fails — as `npm start` would, in a process of its own — exits with code 1 and one
 * line on stderr saying why and what to do, promptly, and leaves nothing behind: no error object,
 * no stack, no database written on the way, no listening socket.
 */
jest.setTimeout(60_000);

let dir: string;
let target: TestDatabase;
let client: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-start-'));
  target = await createTestDatabase(dir, 'start');
  client = standInClient(path.join(dir, 'client'));
});
afterAll(async () => {
  await target.drop();
  fs.chmodSync(dir, 0o700);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Everything a start may write, inside the test's directory. */
const env = (extra: Record<string, string>): Record<string, string> => ({
  DATABASE_URL: `file:${path.join(dir, 'unused.db')}`,
  STATIC_DIR: client,
  UPLOADS_DIR: path.join(dir, 'uploads'),
  SAMPLES_IMAGE_DIR: path.join(dir, 'sample-images'),
  CATALOGUE_IMAGE_DIR: path.join(dir, 'catalogue-images'),
  ...extra,
});

/** The one line it printed, after checking it printed nothing else and exited 1 by itself. */
function oneLine(run: FailedStart): string {
  expect({ code: run.code, signal: run.signal, stdout: run.stdout }).toEqual({ code: 1, signal: null, stdout: '' });
  expect(run.stderr.endsWith('\n')).toBe(true);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

/** A port something else is listening on, and how to let it go. */
async function takenPort(): Promise<{ port: number; release: () => Promise<void> }> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  return { port: (holder.address() as net.AddressInfo).port, release: () => new Promise((resolve) => holder.close(() => resolve())) };
}

describe('a start that fails says why in one line and exits 1', () => {
  it('port taken: names the port and what to do, and writes nothing (the next start still shows the generated password)', async () => {
    const taken = await takenPort();
    try {
      const run = await spawnBffToExit(env({ PORT: String(taken.port), DATABASE_URL: target.url }));
      expect(oneLine(run)).toBe(`Port ${taken.port} is already in use: stop the other process or set PORT.`);
    } finally {
      await taken.release();
    }
    const next = await spawnBff(env({ DATABASE_URL: target.url }));
    for (let i = 0; i < 100 && !/Log in at/.test(next.output()); i++) await new Promise((r) => setTimeout(r, 50));
    await next.stop();
    expect(next.output()).toMatch(/First start: created the admin account\. Log in at .* with\n {2}email: {4}admin@frontdesk\.local\n {2}password: \S+/);
  });

  it('SQLite file in a directory this user may not write to', async () => {
    // Root writes through permission bits; /proc refuses even root a new file.
    const readOnly = process.getuid?.() === 0 ? '/proc' : path.join(dir, 'read-only');
    if (readOnly !== '/proc') fs.mkdirSync(readOnly, { mode: 0o555 });
    const file = path.join(readOnly, 'frontdesk-start-test.db');
    const line = oneLine(await spawnBffToExit(env({ DATABASE_URL: `file:${file}` })));
    expect(line).toMatch(new RegExp(`^Cannot open the SQLite database ${file} \\(DATABASE_URL\\): .*${readOnly}`));
  });

  it('SQLite file under something that is not a directory', async () => {
    const notADirectory = path.join(dir, 'a-file');
    fs.writeFileSync(notADirectory, '');
    const line = oneLine(await spawnBffToExit(env({ DATABASE_URL: `file:${path.join(notADirectory, 'data', 'frontdesk.db')}` })));
    expect(line).toBe(`Cannot open the SQLite database ${path.join(notADirectory, 'data', 'frontdesk.db')} (DATABASE_URL): ${path.join(notADirectory, 'data')} is not a directory.`);
  });

  it('PostgreSQL unreachable: names DATABASE_URL without its password', async () => {
    const port = await freePort();
    const line = oneLine(await spawnBffToExit(env({ DATABASE_URL: `postgres://frontdesk:very-secret-pw@127.0.0.1:${port}/frontdesk` })));
    expect(line).toBe(`Cannot open the PostgreSQL database postgres://frontdesk@127.0.0.1:${port}/frontdesk (DATABASE_URL): nothing accepts connections at 127.0.0.1:${port}; is PostgreSQL running there?`);
  });

  it('no client build in production: says to build, and touches no database', async () => {
    const empty = path.join(dir, 'empty-static');
    fs.mkdirSync(empty);
    const database = path.join(dir, 'never-created.db');
    const line = oneLine(await spawnBffToExit(env({ STATIC_DIR: empty, DATABASE_URL: `file:${database}` })));
    expect(line).toBe(`No client build in ${empty} (index.html is missing): run \`npm run build\` first, or \`npm start\`, which builds and then starts.`);
    expect(fs.existsSync(database)).toBe(false);
  });

  it('a failure after listening, before ready (the emulator up, the uploads directory impossible): one line, no hang', async () => {
    const blocker = path.join(dir, 'uploads-blocker');
    fs.writeFileSync(blocker, '');
    const run = await spawnBffToExit(env({ DATABASE_URL: target.url, UPLOADS_DIR: path.join(blocker, 'uploads') }));
    expect(oneLine(run)).toMatch(/^Frontdesk could not start: ENOTDIR: not a directory, mkdir '.*uploads-blocker\/uploads\/blobs'$/);
  });

  it('a bad setting: the configuration message, without a stack', async () => {
    const run = await spawnBffToExit(env({ PORT: 'eighty' }));
    expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 1, stdout: '' });
    expect(run.stderr).toBe('Invalid configuration:\n  - PORT must be a whole number from 0 to 65535\n');
  });
});

describe('in the process (tests and the browser harness start it so)', () => {
  const active = (kind: 'TCPServerWrap' | 'TCPSocketWrap') => process.getActiveResourcesInfo().filter((r) => r === kind).length;

  it('a failed start closes what it opened: its port is free again, and no server or connection is left', async () => {
    const before = { servers: active('TCPServerWrap'), sockets: active('TCPSocketWrap') };
    const port = await freePort();
    const blocker = path.join(dir, 'in-process-blocker');
    fs.writeFileSync(blocker, '');
    await expect(startServer(env({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: target.url, UPLOADS_DIR: path.join(blocker, 'x') }), () => {})).rejects.toThrow(/ENOTDIR/);
    // The emulator listened and the database was open when the uploads directory failed; closed handles leave the list a moment later.
    const left = () => ({ servers: Math.max(0, active('TCPServerWrap') - before.servers), sockets: Math.max(0, active('TCPSocketWrap') - before.sockets) });
    for (let i = 0; i < 50 && (left().servers || left().sockets); i++) await new Promise((r) => setTimeout(r, 20));
    expect(left()).toEqual({ servers: 0, sockets: 0 });
    const again = net.createServer();
    await new Promise<void>((resolve, reject) => again.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => again.close(resolve));
  });

  it('requires the client build only when asked and in production (npm run dev sets development: Vite serves the client)', async () => {
    const empty = path.join(dir, 'no-build');
    fs.mkdirSync(empty);
    const base = env({ PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATABASE_URL: target.url, STATIC_DIR: empty });
    await expect(startServer(base, () => {}, { requireClientBuild: true })).rejects.toThrow(StartError);
    const dev = await startServer({ ...base, NODE_ENV: 'development' }, () => {}, { requireClientBuild: true });
    await dev.close();
    const api = await startServer(base, () => {});
    await api.close();
  });

  it('answers 503 while listening but not ready, then the app', async () => {
    const listening = await listenFirst(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(listening.server.address() as net.AddressInfo).port}/api`;
    const starting = await fetch(url);
    expect(starting.status).toBe(503);
    expect(starting.headers.get('retry-after')).toBe('1');
    expect(await starting.json()).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'Frontdesk is starting; try again in a moment.' });
    // A browser opening a page (through a balancer that passes the 503 on) gets a line, and the page again in a second, not JSON.
    const page = await fetch(url.replace(/\/api$/, '/shell/webhook'), { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect([page.status, page.headers.get('retry-after'), page.headers.get('content-type')]).toEqual([503, '1', 'text/html; charset=utf-8']);
    const html = await page.text();
    expect(html).toContain('<meta http-equiv="refresh" content="1">');
    expect(html).toContain('Frontdesk is starting; this page loads again in a moment.');
    listening.serve((_req: http.IncomingMessage, res: http.ServerResponse) => res.end('ready'));
    expect(await (await fetch(url)).text()).toBe('ready');
    await listening.close();
  });

  it('an unexpected failure is its first line, database passwords taken out', () => {
    const err = new Error('connect to postgres://app:hunter2@db.internal:5432/frontdesk failed\n    at somewhere (x.ts:1:1)');
    expect(startFailureLine(err)).toBe('Frontdesk could not start: connect to postgres://app@db.internal:5432/frontdesk failed');
  });
});
