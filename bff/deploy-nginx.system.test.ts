import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { isEndpoint } from './contracts/endpoint.contract';
import { freePort } from './test-support/free-port';
import { spawnBff, type SpawnedBff } from './test-support/spawn-bff';
import { testEngine } from './test-support/test-database';
import { startThrowawayPostgres, type ThrowawayPostgres } from './test-support/throwaway-postgres';

/**
 * The deploy recipe, run: deploy/nginx.conf.template filled in as docs/deploy.md says (https with a
 * certificate made for the test, plain http sent on to it, the instances' settings to match),
 * Debian's nginx in front of two BFF instances on one throw-away PostgreSQL, and a browser that
 * knows only nginx's address. An admin watches the door-events inbox and the runner board and
 * uploads 50 MB over tus; the instance the upload is on is killed (SIGKILL) part-way; the pages
 * reconnect through the survivor, the upload finishes there, nothing that was acknowledged is
 * missing; the instance comes back and takes requests again. The app's own 502s, a picture host
 * away, a PostgreSQL outage and an instance stopping never take the site down (decision 0098).
 */

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((candidate) => fs.existsSync(candidate));
const CLIENT_BUILD = path.resolve('dist/client');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** nginx connects to the instances from this address, and only it is trusted to forward a client's address. */
const BALANCER_ADDRESS = '127.0.0.2';
const ADMIN = { email: 'admin@deploy.test', password: 'deploy-admin-password' };
const METRICS_TOKEN = 'deploy-test-metrics-token';
const POOL_SIZE = 4;
const UPLOAD_BYTES = 50 * 1024 * 1024;
/** A person the Kisi emulator knows. */
const PERSON = { name: 'Carmen Ruiz', email: 'carmen.ruiz@mail.example' };

const OPENSSL = ['/usr/bin/openssl', '/usr/local/bin/openssl'].find((candidate) => fs.existsSync(candidate));

const why = !NGINX
  ? 'skipped: nginx is not installed (apt-get install -y nginx; .ci/run installs it)'
  : !OPENSSL
    ? 'skipped: openssl is not installed (it makes the test certificate)'
  : testEngine() === 'postgres'
    ? 'skipped in the PostgreSQL pass: the system tier runs it on a throw-away PostgreSQL of its own'
    : undefined;
const describeIfNginx = why ? describe.skip : describe;
jest.setTimeout(60_000);

/** deploy/nginx.conf.template with every {{NAME}} filled; a name left unfilled fails the test. */
function renderNginxConf(values: Record<string, string>): string {
  const template = fs.readFileSync(path.resolve('deploy/nginx.conf.template'), 'utf8');
  return template.replace(/\{\{([A-Z_]+)\}\}/g, (_m, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`deploy/nginx.conf.template names {{${name}}}, which the test does not fill`);
    return value;
  });
}

/** The nginx process: the master runs unprivileged (as www-data when we are root) in a prefix of its own. */
async function startNginx(dir: string, confText: string, port: number) {
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, confText);
  let user: { uid?: number; gid?: number } = {};
  if (process.getuid?.() === 0) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'www-data'], { encoding: 'utf8' }).stdout.trim());
    user = { uid: id('-u'), gid: id('-g') };
    spawnSync('chown', ['-R', 'www-data:www-data', dir]);
  }
  const test = spawnSync(NGINX!, ['-t', '-p', dir, '-c', conf, '-e', path.join(dir, 'error.log')], { encoding: 'utf8', ...user });
  if (test.status !== 0) throw new Error(`nginx -t refused the filled template:\n${test.stderr}`);
  let output = '';
  const child = spawn(NGINX!, ['-p', dir, '-c', conf, '-e', path.join(dir, 'error.log'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'], ...user });
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${output}`);
    if ((await get(`https://127.0.0.1:${port}/api/health/live`))?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`nginx did not answer within 10 s:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return child;
}

/** One line of the access log (log_format frontdesk). */
type Logged = { method: string; path: string; status: number; upstreams: string[] };
function accessLog(dir: string): Logged[] {
  const file = path.join(dir, 'access.log');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      const match = /"(\w+) (\S+) [^"]*" (\d{3}) .* upstream=(\S+(?:, \S+)*) upstream_status=/.exec(line);
      return match ? [{ method: match[1]!, path: match[2]!, status: Number(match[3]), upstreams: match[4]!.split(', ') }] : [];
    });
}

async function until<T>(what: string | (() => string), check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`waited ${timeoutMs} ms for: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The certificate nginx presents (made in beforeAll), which this test's own requests trust. */
let certificate: string | undefined;

type Answer = { status: number; headers: http.IncomingHttpHeaders; text: string };
/** A request on a connection of its own (nothing kept alive after the test): its status, headers and text, undefined when refused. */
const call = (url: string, { method = 'GET', headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new Promise<Answer | undefined>((resolve) => {
    const client = url.startsWith('https:') ? https : http;
    const req = client.request(url, { method, headers, agent: false, ca: certificate }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => void (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', () => resolve(undefined));
    req.end(body);
  });
const get = (url: string, headers: Record<string, string> = {}) => call(url, { headers });

async function openStreams(instance: string): Promise<number> {
  const res = await get(`${instance}/metrics`, { Authorization: `Bearer ${METRICS_TOKEN}` });
  const match = res?.status === 200 ? /^frontdesk_event_streams_open (\d+)/m.exec(res.text) : null;
  return match ? Number(match[1]) : -1;
}

let dir: string;
let postgres: ThrowawayPostgres;
let nginx: ChildProcess | undefined;
let browser: Browser;
let context: BrowserContext;
let nginxUrl: string;
let plainHttpUrl: string;
const instances: { port: number; bff?: SpawnedBff }[] = [];
/** A port nothing listens on: the sample pages' services and their picture host, away. */
let awayUrl: string;
let env: Record<string, string>;

// Read from the template's text: needs no nginx, so it runs wherever the system tier does.
it("every Server-Sent Events endpoint of the contracts takes nginx's streaming location (unbuffered, held open)", () => {
  const template = fs.readFileSync(path.resolve('deploy/nginx.conf.template'), 'utf8');
  const streaming = /location ~ (\^\/api\/\S+) \{\n\s*proxy_pass http:\/\/frontdesk;\n\s*proxy_buffering off;/.exec(template)?.[1];
  expect(streaming).toBeDefined();
  const dir = path.resolve('bff/contracts');
  const paths: string[] = [];
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.contract.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the contract files are found at run time
    for (const value of Object.values(require(path.join(dir, file)) as Record<string, unknown>)) {
      if (typeof value !== 'object' || value === null) continue;
      for (const candidate of Object.values(value)) if (isEndpoint(candidate) && candidate.stream === 'sse') paths.push(candidate.path);
    }
  }
  expect(paths).toContain('/api/pt/menu/stream');
  const regex = new RegExp(streaming!);
  expect(paths.filter((p) => !regex.test(p.replace(/:\w+/g, '42')))).toEqual([]);
});

describeIfNginx(why ?? 'nginx in front of two instances (deploy/nginx.conf.template)', () => {
  beforeAll(async () => {
    if (!fs.existsSync(path.join(CLIENT_BUILD, 'index.html'))) throw new Error('dist/client is missing: run `npm run build` first (the pages are the built SPA)');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-deploy-'));
    fs.chmodSync(dir, 0o755);
    const nginxDir = path.join(dir, 'nginx');
    fs.mkdirSync(nginxDir);
    // The site's certificate, for 127.0.0.1 (on a real host: Let's Encrypt's, for desk.example.com).
    const [cert, key] = [path.join(nginxDir, 'cert.pem'), path.join(nginxDir, 'key.pem')];
    const made = spawnSync(OPENSSL!, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl could not make the test certificate:\n${made.stderr}`);
    certificate = fs.readFileSync(cert, 'utf8');
    const [nginxPort, plainPort] = [await freePort(), await freePort()];
    nginxUrl = `https://127.0.0.1:${nginxPort}`;
    plainHttpUrl = `http://127.0.0.1:${plainPort}`;
    awayUrl = `http://127.0.0.1:${await freePort()}`;
    instances.push({ port: await freePort() }, { port: await freePort() });
    [postgres] = await Promise.all([startThrowawayPostgres()]);
    env = {
      DATABASE_URL: postgres.url,
      DATABASE_POOL_SIZE: String(POOL_SIZE),
      HOST: '127.0.0.1',
      STATIC_DIR: CLIENT_BUILD,
      UPLOADS_DIR: path.join(dir, 'uploads'),
      SAMPLES_IMAGE_DIR: path.join(dir, 'sample-images'),
      CATALOGUE_IMAGE_DIR: path.join(dir, 'catalogue-images'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      KISI_WEBHOOK_SECRET: 'deploy-test-webhook-secret',
      // The values docs/deploy.md gives, together: the https address users open, secure cookies, the balancer's address trusted.
      PUBLIC_ORIGIN: nginxUrl,
      COOKIE_SECURE: 'true',
      TRUST_PROXY: BALANCER_ADDRESS,
      METRICS_TOKEN,
      SHUTDOWN_DRAIN_MS: '1000',
      // The sample pages' services and picture host: away (nothing listens there).
      SAMPLES_POKEAPI_URL: `${awayUrl}/api/v2`,
      SAMPLES_POKEAPI_SPRITES_URL: `${awayUrl}/sprites`,
      SAMPLES_RICKANDMORTY_URL: `${awayUrl}/api`,
      SAMPLES_JSONPLACEHOLDER_URL: awayUrl,
    };
    const started = await Promise.all(instances.map((instance) => spawnBff({ ...env, PORT: String(instance.port) })));
    started.forEach((bff, i) => (instances[i]!.bff = bff));
    const conf = renderNginxConf({
      PID_FILE: path.join(nginxDir, 'nginx.pid'),
      LOG_DIR: nginxDir,
      TEMP_DIR: nginxDir,
      HTTPS_LISTEN: `127.0.0.1:${nginxPort} ssl`,
      HTTP_LISTEN: `127.0.0.1:${plainPort}`,
      SERVER_NAME: '127.0.0.1',
      PUBLIC_ORIGIN: nginxUrl,
      TLS_CERTIFICATE: cert,
      TLS_CERTIFICATE_KEY: key,
      BALANCER_ADDRESS,
      INSTANCES: instances.map((instance) => `    server 127.0.0.1:${instance.port} max_fails=1 fail_timeout=2s;`).join('\n'),
    });
    nginx = await startNginx(nginxDir, conf, nginxPort);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--no-first-run', '--force-prefers-reduced-motion'] });
    // The browser does not know the test's certificate authority (a real site's is one it knows).
    context = await browser.newContext({ baseURL: nginxUrl, viewport: { width: 1280, height: 800 }, ignoreHTTPSErrors: true });
  });

  afterAll(async () => {
    await browser?.close();
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((resolve) => nginx!.once('exit', resolve));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await Promise.all(instances.map((instance) => instance.bff?.stop()));
    await postgres?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const nginxLog = () => accessLog(path.join(dir, 'nginx'));
  const address = (i: number) => `127.0.0.1:${instances[i]!.port}`;

  it('each instance holds its pool and two listening connections on PostgreSQL, no more', async () => {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    const rows = (await client.query<{ app: string; n: string }>("select application_name as app, count(*) as n from pg_stat_activity where application_name like 'frontdesk%' group by 1")).rows;
    await client.end();
    const count = Object.fromEntries(rows.map((r) => [r.app, Number(r.n)]));
    expect(count['frontdesk-listen']).toBe(2 * instances.length);
    // The product's pool and the emulator's (4), per instance, at most.
    expect(count['frontdesk'] ?? 0).toBeLessThanOrEqual(instances.length * (POOL_SIZE + 4));
  });

  it('plain http is sent on to the https address; nginx\u2019s own refusals are problems like the app\u2019s', async () => {
    const plain = await get(`${plainHttpUrl}/shell/webhook?page=2`);
    expect([plain?.status, plain?.headers.location]).toEqual([301, `${nginxUrl}/shell/webhook?page=2`]);
    const problemOf = (answer: Answer | undefined) => {
      expect([answer?.status, answer?.headers['content-type']]).toEqual([expect.any(Number), 'application/problem+json']);
      return JSON.parse(answer!.text) as { type: string; title: string; status: number; detail: string };
    };
    // An address too long (414) and headers too large (400) never reach the app.
    const accessLines = () => fs.readFileSync(path.join(dir, 'nginx', 'access.log'), 'utf8').trim().split('\n');
    const before = accessLines().length;
    expect(problemOf(await get(`${nginxUrl}/pieces?query=${'a'.repeat(9000)}`))).toEqual({ type: 'about:blank', title: 'URI Too Long', status: 414, detail: 'The address is too long for the server in front of Frontdesk.' });
    expect(problemOf(await get(`${nginxUrl}/pieces`, { 'X-Padding': 'a'.repeat(20_000) }))).toMatchObject({ type: 'about:blank', title: 'Bad Request', status: 400 });
    expect(accessLines().slice(before).map((line) => / (\d{3}) \d+ upstream=(\S+) /.exec(line)?.slice(1))).toEqual([['414', '-']]);
  });

  it('a chunk nginx refuses (413) never reaches the app; the upload holds its space until the page ends it, which frees it', async () => {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    const used = async () => ((await (await page.request.get('/api/uploads/limits')).json()) as { usedBytes: number }).usedBytes;
    const before = await used();
    const tus = { 'Tus-Resumable': '1.0.0' };
    const meta = (text: string) => Buffer.from(text).toString('base64');
    const created = await page.request.post('/api/uploads/tus', {
      headers: { ...tus, 'Upload-Length': String(20 * 1024 * 1024), 'Upload-Metadata': `filename ${meta('Too big a chunk.pdf')},filetype ${meta('application/pdf')}` },
    });
    expect(created.status()).toBe(201);
    const location = created.headers()['location']!;
    expect(await used()).toBe(before + 20 * 1024 * 1024);
    // More than nginx's client_max_body_size for tus (16 MB) in one PATCH: nginx answers, the app hears nothing.
    const chunk = await page.request.patch(location, { headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, data: Buffer.alloc(17 * 1024 * 1024) });
    expect(chunk.status()).toBe(413);
    // nginx's own refusal, in the app's problem shape: the page says what to tell the administrator.
    expect(chunk.headers()['content-type']).toBe('application/problem+json');
    expect(((await chunk.json()) as { detail: string }).detail).toMatch(/^A server in front of the app refused this request as too large \(413\)\. Tell your administrator/);
    expect(await used()).toBe(before + 20 * 1024 * 1024);
    // What the page does with an upload refused for good (client/features/uploads/tus-upload.ts): it ends it.
    expect((await page.request.delete(location, { headers: tus })).status()).toBe(204);
    expect(await used()).toBe(before);
    await page.close();
  });

  it('sign in, watch, upload, lose an instance mid-upload: the pages carry on through the other and nothing acknowledged is lost', async () => {
    const inbox = await context.newPage();
    const pageErrors: string[] = [];
    inbox.on('pageerror', (error) => pageErrors.push(error.message));
    await inbox.goto(`/login?redirect=${encodeURIComponent('/shell/webhook')}`);
    await inbox.getByLabel('Email').fill(ADMIN.email);
    await inbox.getByLabel('Password').fill(ADMIN.password);
    await inbox.getByRole('button', { name: 'Sign in', exact: true }).click();
    await inbox.getByRole('heading', { name: 'Door events', level: 1 }).waitFor();
    await inbox.getByText('Live', { exact: true }).waitFor();
    const totalEvents = async () => Number(/of (\d+) events/.exec((await inbox.getByText(/^Showing 1–\d+ of \d+ events$/).textContent()) ?? '')?.[1]);
    const eventsBefore = await totalEvents();

    const board = await context.newPage();
    board.on('pageerror', (error) => pageErrors.push(error.message));
    // What the board's page asked of its stream and heard, for the message when its badge never says Live.
    const boardStreams: string[] = [];
    board.on('response', (res) => {
      if (new URL(res.url()).pathname === '/api/events') boardStreams.push(`${res.status()} ${res.url()}`);
    });
    board.on('requestfailed', (req) => {
      if (new URL(req.url()).pathname === '/api/events') boardStreams.push(`failed (${req.failure()?.errorText}) ${req.url()}`);
    });
    const boardIsLive = async () => {
      try {
        await board.getByTitle('Live orders: Live').waitFor();
      } catch (err) {
        const badge = await board.locator('.live-status').first().getAttribute('title', { timeout: 1000 }).catch(() => 'no badge');
        throw new Error(`the board never said Live (its badge: ${badge}; its streams: ${boardStreams.join('; ') || 'none'}; page errors: ${pageErrors.join('; ') || 'none'})`, { cause: err });
      }
    };
    await board.goto('/pt/runner');
    await board.getByRole('heading', { name: 'Runner board', level: 1 }).waitFor();
    await boardIsLive();

    const uploader = await context.newPage();
    uploader.on('pageerror', (error) => pageErrors.push(error.message));
    await uploader.goto('/shell/upload/1');
    await uploader.getByRole('heading', { name: 'Upload a file', level: 1 }).waitFor();

    // Round robin spreads the pages' event streams: both instances hold some (a page opened again gets the next).
    // A reload sends the same number of requests each time: when that number is even its stream lands where
    // the last one did, so every other reload goes one request further round first.
    const urls = instances.map((instance) => `http://127.0.0.1:${instance.port}`);
    for (let attempt = 0; ; attempt++) {
      const counts = await Promise.all(urls.map(openStreams));
      if (counts.every((n) => n > 0)) break;
      if (attempt === 8) throw new Error(`the event streams did not spread over both instances: ${counts.join(', ')}`);
      if (attempt % 2 === 1) await board.request.get('/api/health/live');
      await board.reload();
      await boardIsLive();
    }

    const menu = (await (await board.request.get('/api/pt/menu')).json()) as { stalls: Array<{ items: Array<{ id: number }> }> };
    const itemId = menu.stalls[0]!.items[0]!.id;
    /** A diner's order, from the board's page: its answer is the acknowledgement. */
    const placeOrder = (table: number) =>
      board.evaluate(async ([at, item]) => {
        const res = await fetch('/api/pt/order', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ table: at, cart: [{ itemId: item, quantity: 1 }] }) });
        return { status: res.status, id: ((await res.json()) as { id?: number }).id };
      }, [table, itemId] as const);
    const unlock = () =>
      inbox.evaluate(async (email) => {
        const res = await fetch('/api/kisi-emulator/unlocks', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email }) });
        return { status: res.status, body: (await res.json()) as { success?: boolean } };
      }, PERSON.email);
    const onBoard = (table: number, id: number) => board.getByRole('article', { name: `Table ${table} · Order ${id}` }).waitFor();

    const first = await placeOrder(11);
    expect(first.status).toBe(201);
    await onBoard(11, first.id!);
    expect((await unlock()).status).toBe(200);
    await inbox.getByRole('button', { name: '1 new event' }).waitFor();

    // 50 MB over tus, slowed to about 25 MB/s, so the instance can be killed between its chunks.
    const file = path.join(dir, 'Floor plan.pdf');
    const bytes = Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), randomBytes(UPLOAD_BYTES - 15)]);
    fs.writeFileSync(file, bytes);
    const cdp = await context.newCDPSession(uploader);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 25 * 1024 * 1024 });
    const [chooser] = await Promise.all([uploader.waitForEvent('filechooser'), uploader.getByRole('button', { name: 'Choose a file', exact: true }).click()]);
    await chooser.setFiles(file);

    // The first chunk's answer names the instance the upload is on.
    const firstChunk = await until('the upload’s first chunk through nginx', () => nginxLog().find((l) => l.method === 'PATCH' && l.status === 204 && l.path.startsWith('/api/uploads/tus/')));
    const uploadPath = firstChunk.path;
    const doomed = instances.findIndex((_, i) => firstChunk.upstreams.at(-1) === address(i));
    expect(doomed).toBeGreaterThanOrEqual(0);
    const survivor = 1 - doomed;
    const streamsCut = await openStreams(urls[doomed]!);
    instances[doomed]!.bff!.child.kill('SIGKILL');
    await new Promise((resolve) => instances[doomed]!.bff!.child.once('exit', resolve));

    // Acknowledged while the pages are still finding their way back: they must get them all the same.
    const second = await placeOrder(12);
    expect(second.status).toBe(201);
    expect((await unlock()).status).toBe(200);

    const card = uploader.getByRole('region', { name: 'Uploaded' });
    await card.getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    await card.getByText('Stored as Floor plan.pdf (50 MB).').waitFor();
    await onBoard(12, second.id!);
    // Both door events show: the inbox's stream, reopened on the survivor, reads the list again (docs/live-events.md
    // "On the server"); or the resumed stream announced them first ("2 new events"), and the button brings them.
    await until('the inbox to show both new events', async () => {
      const announced = inbox.getByRole('button', { name: /^\d+ new events?$/ });
      if (await announced.isVisible()) await announced.click({ timeout: 2_000 }).catch(() => undefined);
      return (await totalEvents()) === eventsBefore + 2;
    });
    await inbox.getByText('Live', { exact: true }).waitFor();
    await board.getByTitle('Live orders: Live').waitFor();

    // The file is whole; every request of the upload went to one instance, then (after the kill) the other.
    const stored = (await (await uploader.request.get('/api/uploads?page=0&pageSize=10')).json()) as { items: Array<{ name: string; size: number; sha256: string }> };
    expect(stored.items.find((f) => f.name === 'Floor plan.pdf')).toMatchObject({ size: UPLOAD_BYTES, sha256: createHash('sha256').update(bytes).digest('hex') });
    const trail = nginxLog().filter((l) => l.path === uploadPath).map((l) => (l.upstreams.at(-1) === address(doomed) ? 'doomed' : 'survivor'));
    expect(trail.join(' ')).toMatch(/^(doomed )+(survivor ?)+$/);
    // The streams the killed instance held were cut (nginx logs a stream when it ends) and opened again on the survivor.
    expect(streamsCut).toBeGreaterThan(0);
    expect(nginxLog().filter((l) => l.path.startsWith('/api/events') && l.upstreams.at(-1) === address(doomed)).length).toBeGreaterThan(0);
    // The inbox, the board and the upload page (the staff shell's Guest help count listens on every shell page, decision 0063).
    expect(await openStreams(urls[survivor]!)).toBe(3);
    expect(pageErrors).toEqual([]);

    // The instance comes back on its port and nginx sends it requests again.
    instances[doomed]!.bff = await spawnBff({ ...env, PORT: String(instances[doomed]!.port) });
    const rejoinedFrom = nginxLog().length;
    const orders: Array<{ status: number; id?: number }> = [];
    await until(() => `nginx to route to the restarted instance; since its start:\n${nginxLog().slice(rejoinedFrom).map((l) => `${l.method} ${l.path} ${l.status} ${l.upstreams.join(', ')}`).join('\n')}`, async () => {
      orders.push(await placeOrder(13));
      return nginxLog().slice(rejoinedFrom).some((l) => l.path === '/api/pt/order' && l.status === 201 && l.upstreams.at(-1) === address(doomed));
    });
    expect(orders.map((o) => o.status)).toEqual(orders.map(() => 201));
    for (const order of orders) await onBoard(13, order.id!);
  });

  /** What the pages around them ask while the app answers its 502s: each must be answered 200 through nginx. */
  const everyOtherPage = async () => {
    const answers = await Promise.all([get(`${nginxUrl}/`, { Accept: 'text/html' }), get(`${nginxUrl}/pieces`, { Accept: 'text/html' }), get(`${nginxUrl}/api/pt/stalls`), get(`${nginxUrl}/api/rest/pieces?page=0`)]);
    return answers.map((answer) => answer?.status ?? 0);
  };
  /** nginx's error log from `from` on (its length in characters before). */
  const nginxErrors = (from = 0) => fs.readFileSync(path.join(dir, 'nginx', 'error.log'), 'utf8').slice(from);

  it('a picture whose host cannot be reached and a sample page whose service is down, 20 times each: every other page keeps answering 200', async () => {
    const from = nginxLog().length;
    const errorsFrom = nginxErrors().length;
    const others: number[] = [];
    for (let i = 1; i <= 20; i++) {
      // A picture never fetched (each another one), from a host that refuses: the placeholder, never a 502.
      const picture = await get(`${nginxUrl}/api/samples/images?src=${encodeURIComponent(`${awayUrl}/sprites/pokemon/${i}.png`)}`);
      expect([picture?.status, picture?.headers['content-type'], picture?.headers['x-picture-unavailable']]).toEqual([200, 'image/svg+xml', 'The picture host 127.0.0.1:' + awayUrl.split(':')[2] + ' could not be reached. Try again in a moment.']);
      // A sample page never stored, its service away: the app's own 502 problem, passed on as it is.
      const sample = await get(`${nginxUrl}/api/samples/pokemon?page=${i}`);
      expect([sample?.status, sample?.headers['content-type'], JSON.parse(sample?.text ?? '{}').detail]).toEqual([502, 'application/problem+json; charset=utf-8', 'PokeAPI could not be reached. Try again in a moment.']);
      others.push(...(await everyOtherPage()));
    }
    expect(others).toEqual(others.map(() => 200));
    // Each 502 was the app's (one instance asked, never a second), and no instance was left out for it.
    const samples = nginxLog().slice(from).filter((l) => l.path.startsWith('/api/samples/pokemon'));
    expect(samples.map((l) => [l.status, l.upstreams.length])).toEqual(samples.map(() => [502, 1]));
    expect(nginxErrors(errorsFrom)).not.toMatch(/no live upstreams|upstream server temporarily disabled/);
  });

  it('PostgreSQL away for a while: clients get the app\u2019s 503 with Retry-After through nginx, never nginx\u2019s 502, pages still load, and all comes back by itself', async () => {
    const from = nginxLog().length;
    const errorsFrom = nginxErrors().length;
    const login = await call(`${nginxUrl}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: nginxUrl }, body: JSON.stringify(ADMIN) });
    expect(login?.status).toBe(200);
    const session = String(login!.headers['set-cookie']?.[0]).split(';')[0]!;
    await postgres.pause();
    try {
      const answers: Array<Answer | undefined> = [];
      for (let i = 0; i < 30; i++) {
        answers.push(await get(`${nginxUrl}/api/pt/stalls`));
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(answers.map((a) => [a?.status, a?.headers['retry-after'], a?.headers['content-type']])).toEqual(answers.map(() => [503, '5', 'application/problem+json; charset=utf-8']));
      expect(JSON.parse(answers[0]!.text)).toMatchObject({ status: 503, detail: 'The service is briefly unavailable. Try again in a few seconds.' });
      // A page load is the app itself (it needs no database, even for a signed-in person): its reads then sit out their 503s.
      for (const page of [await get(`${nginxUrl}/pieces`, { Accept: 'text/html' }), await get(`${nginxUrl}/shell/webhook`, { Accept: 'text/html', Cookie: session })]) {
        expect([page?.status, page?.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      }
      expect(nginxLog().slice(from).filter((l) => l.status === 502)).toEqual([]);
    } finally {
      await postgres.resume();
    }
    await until('both instances ready again', async () => (await Promise.all(instances.map((instance) => get(`http://127.0.0.1:${instance.port}/api/health/ready`)))).every((ready) => ready?.status === 200), 30_000);
    expect(await everyOtherPage()).toEqual([200, 200, 200, 200]);
    expect(nginxErrors(errorsFrom)).not.toMatch(/no live upstreams|upstream server temporarily disabled/);
  });

  it('an instance stopped (SIGTERM) while reads go on: each read is answered 200, by it while it drains and then by the other', async () => {
    const stopping = instances[0]!;
    const reads: number[] = [];
    let going = true;
    const reading = (async () => {
      while (going) reads.push((await get(`${nginxUrl}/api/pt/stalls`))?.status ?? 0);
    })();
    await new Promise((r) => setTimeout(r, 300));
    const from = nginxLog().length;
    await stopping.bff!.stop();
    await new Promise((r) => setTimeout(r, 500));
    going = false;
    await reading;
    expect(reads.length).toBeGreaterThan(10);
    expect(reads).toEqual(reads.map(() => 200));
    // The stopping instance answered during its drain; its readiness said so.
    expect(nginxLog().slice(from).some((l) => l.path === '/api/pt/stalls' && l.upstreams.at(-1) === address(0))).toBe(true);
    expect(stopping.bff!.output()).toContain('SIGTERM: readiness says stopping');
  });
});
