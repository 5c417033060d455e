import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

/**
 * A PostgreSQL cluster for development and tests that lives in a temporary directory: initdb'd
 * on start, listening on 127.0.0.1 at a free port (no password: trust, loopback only), and
 * deleted with its data on stop. Debian's `postgresql` package provides the programs; as root it
 * runs as the package's `postgres` user, because PostgreSQL refuses to run as root.
 */
export interface ThrowawayPostgres {
  /** A superuser URL to the cluster's `frontdesk` database. */
  url: string;
  port: number;
  stop: () => Promise<void>;
  /** Stops the server (a fast shutdown, as an operator's restart does) and keeps its data, for `resume`. */
  pause: () => Promise<void>;
  /** Starts the paused server again on the same port and data. */
  resume: () => Promise<void>;
}

function findBinDir(): string {
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    const versions = fs.readdirSync(debian).filter((v) => fs.existsSync(path.join(debian, v, 'bin', 'initdb')));
    versions.sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return path.dirname(which.stdout.trim());
  throw new Error('PostgreSQL is not installed: apt-get install -y postgresql (Debian), or put initdb and postgres on PATH.');
}

/**
 * As root, the programs run as `postgres` (spawned with its uid and gid directly, not through
 * runuser, so a stop signal reaches the server itself); otherwise as ourselves.
 */
function runAs(): { user: { uid?: number; gid?: number }; chown: (dir: string) => void } {
  if (process.getuid?.() !== 0) return { user: {}, chown: () => {} };
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0) throw new Error('Running as root needs the postgres user (Debian\'s postgresql package creates it).');
  return {
    user: { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) },
    chown: (dir) => {
      spawnSync('chown', ['-R', 'postgres:postgres', dir]);
    },
  };
}

async function waitUntilReady(url: string, server: ChildProcess, logFile: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`PostgreSQL exited (${server.exitCode}):\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => {});
      if (Date.now() > deadline) throw new Error(`PostgreSQL did not accept connections within 30 s:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * `durable`: PostgreSQL's own durability settings (fsync, synchronous commit, full page writes), for
 * a test of what survives a stop; by default they are off, since the cluster is thrown away.
 */
export async function startThrowawayPostgres({ durable = false }: { durable?: boolean } = {}): Promise<ThrowawayPostgres> {
  const bin = findBinDir();
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-pg-'));
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    fs.chmodSync(dir, 0o700);
    user.chown(dir);
    const init = spawnSync(path.join(bin, 'initdb'), ['-D', data, '-U', 'frontdesk', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8'], {
      encoding: 'utf8',
      cwd: dir,
      ...user.user,
    });
    if (init.status !== 0) throw new Error(`initdb failed:\n${init.stderr || init.stdout}`);
  } catch (err) {
    removeDir();
    throw err;
  }

  const port = await freePort();
  // Durability settings off unless asked for: this cluster is thrown away, and tests should not wait on fsync.
  const durability = durable ? [] : ['fsync=off', 'synchronous_commit=off', 'full_page_writes=off'];
  const settings = ['listen_addresses=127.0.0.1', `port=${port}`, `unix_socket_directories=${dir}`, ...durability, 'max_connections=300'];
  const launch = () => {
    const log = fs.openSync(logFile, 'a');
    const started = spawn(path.join(bin, 'postgres'), ['-D', data, ...settings.flatMap((s) => ['-c', s])], { stdio: ['ignore', log, log], cwd: dir, ...user.user });
    fs.closeSync(log);
    return started;
  };
  let server = launch();
  const killOnExit = () => server.kill('SIGQUIT');
  process.once('exit', killOnExit);

  const halt = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGINT'); // fast shutdown: ends sessions, no checkpoint wait
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
  };
  const stop = async () => {
    process.removeListener('exit', killOnExit);
    await halt();
    removeDir();
  };
  const resume = async () => {
    server = launch();
    await waitUntilReady(`postgres://frontdesk@127.0.0.1:${port}/postgres`, server, logFile);
  };

  try {
    const admin = `postgres://frontdesk@127.0.0.1:${port}/postgres`;
    await waitUntilReady(admin, server, logFile);
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query('create database frontdesk');
    await client.end();
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `postgres://frontdesk@127.0.0.1:${port}/frontdesk`, port, stop, pause: halt, resume };
}
