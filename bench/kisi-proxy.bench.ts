import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bar, info, type Figure } from './figures';
import { fmt, interleaved, ratio, startChildServer, type ChildServer } from './load';

const SECONDS = 5;
const ROUNDS = 2;
const CONNECTIONS = 50;
const ADMIN = { email: 'bench@frontdesk.test', password: 'bench-password-123' };

async function loginCookie(url: string): Promise<string> {
  const login = await fetch(`${url}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
  if (!login.ok) throw new Error(`kisi bench: login failed with ${login.status}`);
  return (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

async function measure(label: string, bff: ChildServer, emulatorUrl: string, key: string) {
  const cookie = await loginCookie(bff.url);
  const proxied = `${bff.url}/api/kisi/users`;
  const direct = `${emulatorUrl}/users`;
  const auth = { Authorization: `KISI-LOGIN ${key}`, Accept: 'application/json' };
  for (const [url, headers] of [[proxied, { cookie }], [direct, auth]] as const) {
    const check = await fetch(url, { headers });
    const body = (await check.json()) as unknown[];
    if (!check.ok || body.length === 0) throw new Error(`kisi bench setup failed: ${url} answered ${check.status}`);
  }
  const { emulator, proxy } = await interleaved(
    { emulator: { url: direct, headers: auth }, proxy: { url: proxied, headers: { cookie } } },
    { connections: CONNECTIONS, durationSeconds: SECONDS, rounds: ROUNDS },
  );
  const r = ratio(proxy.requestsPerSecond, emulator.requestsPerSecond);
  console.log(`  ${label}`);
  console.log(`    emulator directly      ${fmt(emulator.requestsPerSecond)} req/s, p99 ${emulator.p99Ms} ms, non-2xx ${emulator.non2xx}`);
  console.log(`    GET /api/kisi/users    ${fmt(proxy.requestsPerSecond)} req/s, p99 ${proxy.p99Ms} ms, non-2xx ${proxy.non2xx}`);
  return { ratio: r, proxy, emulator };
}

/**
 * docs/ARCHITECTURE.md "Tests and quality bars": proxied `GET /api/kisi/users` (as a logged-in admin) against calling the emulator
 * directly, same run. Measured with the emulator in its own process, standing in for a remote Kisi
 * (the target's setting), and — for information — in emulator mode, where the emulator shares the
 * BFF's process and so its CPU. The outgoing Kisi rate is set to 1,000,000 req/s for both (the
 * production path, every request taking its start in the shared window, at a rate the load never
 * reaches): at Kisi's 5 req/s the proxy would be capped by design, which measures Kisi's quota.
 */
export async function runKisiProxyBench(): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-kisi-bench-'));
  const key = crypto.randomBytes(24).toString('hex');
  const common = { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password, STATIC_DIR: dir, KISI_API_KEY: key };
  console.log(`\nKisi proxy (GET /users of 40 users, ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${SECONDS} s each; outgoing Kisi rate set to 1,000,000 req/s for the run — production queues at Kisi's 5 req/s)`);

  const remote = await startChildServer('bff/kisi/emulator/emulator.cli.ts', { DATABASE_URL: `file:${path.join(dir, 'kisi.db')}`, KISI_API_KEY: key, LOG_LEVEL: 'silent' });
  const bffRemote = await startChildServer('bench/kisi-proxy.server.ts', { ...common, DATABASE_URL: `file:${path.join(dir, 'bff.db')}`, KISI_BASE_URL: remote.url, KISI_GROUP_ID: '1' });
  let remoteRun: Awaited<ReturnType<typeof measure>>;
  try {
    remoteRun = await measure('Kisi (the emulator) in its own process, as a remote Kisi is:', bffRemote, remote.url, key);
  } finally {
    await Promise.all([bffRemote.stop(), remote.stop()]);
  }

  const bff = await startChildServer('bench/kisi-proxy.server.ts', { ...common, DATABASE_URL: `file:${path.join(dir, 'emulated.db')}` });
  let shared: Awaited<ReturnType<typeof measure>>;
  try {
    const emulatorUrl = bff.output.map((line) => line.match(/^Kisi emulator at (http:\/\/\S+)/)?.[1]).find(Boolean);
    if (!emulatorUrl) throw new Error('kisi bench: the server did not say where the emulator listens');
    shared = await measure('emulator mode (emulator inside the BFF process, sharing its CPU; for information):', bff, emulatorUrl, key);
  } finally {
    await bff.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const remoteRatio = remoteRun.ratio;
  console.log(`  ratio ${fmt(remoteRatio, 2)} (target >= 0.70) ${remoteRatio >= 0.7 ? 'OK' : 'BELOW TARGET'}; in emulator mode ${fmt(shared.ratio, 2)}`);
  return [
    info(`GET /api/kisi/users through the proxy (${CONNECTIONS} connections), Kisi in its own process`, remoteRun.proxy.requestsPerSecond, 'req/s'),
    bar('proxy / calling that Kisi directly', remoteRatio, '×', '≥ 0.70', remoteRatio >= 0.7),
    info('the same ratio in emulator mode (the emulator shares the BFF\'s CPU)', shared.ratio, '×'),
  ];
}
