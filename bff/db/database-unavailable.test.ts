import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import express from 'express';
import pg from 'pg';
import request from 'supertest';
import { errorHandler } from '../lib/error-handler';
import { createLogger } from '../lib/logger';
import { freePort } from '../test-support/free-port';
import { isDatabaseUnavailable } from './engine';

/** The error a call makes, as the driver raises it. */
const failureOf = async (call: () => unknown): Promise<unknown> => {
  try {
    await call();
  } catch (err) {
    return err;
  }
  throw new Error('expected the call to fail');
};

/** A server that takes connections and never says a word (a PostgreSQL host dropping packets, as far as a client can tell). */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => void sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => new Promise<void>((resolve) => {
      sockets.forEach((s) => s.destroy());
      server.close(() => resolve());
    }),
  };
}

/** What `work` throws (undefined when it does not). */
function errorOf(work: () => unknown): unknown {
  try {
    work();
  } catch (err) {
    return err;
  }
  return undefined;
}

describe('isDatabaseUnavailable: PostgreSQL', () => {
  it('knows a refused connection and a connect timeout, as node-postgres raises them', async () => {
    const closedPort = await freePort();
    const refused = await failureOf(async () => {
      const client = new pg.Client({ host: '127.0.0.1', port: closedPort, connectionTimeoutMillis: 1000 });
      await client.connect();
    });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const silent = await silentServer();
    try {
      const pool = new pg.Pool({ host: '127.0.0.1', port: silent.port, connectionTimeoutMillis: 100 });
      const timedOut = await failureOf(() => pool.query('select 1'));
      await pool.end().catch(() => {});
      expect(String(timedOut)).toMatch(/timeout/);
      expect(isDatabaseUnavailable(timedOut)).toBe(true);
    } finally {
      await silent.close();
    }
  });

  it('knows the server going away (SQLSTATE 57P01–57P03, class 08, 53300) a statement cancelled (57014), and not a query of ours that fails', () => {
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300', '57014']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    for (const code of ['23505', '42P01', '22P02', '40001']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Something else'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('isDatabaseUnavailable: SQLite', () => {
  it('knows a write lock held past the busy timeout, as better-sqlite3 raises it, and not a constraint', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-busy-'));
    const file = path.join(dir, 'db.sqlite');
    const holder = new SQLite(file);
    const other = new SQLite(file);
    try {
      holder.exec('create table t (id integer primary key)');
      other.pragma('busy_timeout = 0');
      holder.exec('begin immediate');
      const busy = errorOf(() => other.exec('insert into t (id) values (1)'));
      expect((busy as { code?: string }).code).toBe('SQLITE_BUSY');
      expect(isDatabaseUnavailable(busy)).toBe(true);
      holder.exec('insert into t (id) values (1)');
      holder.exec('commit');
      const duplicate = errorOf(() => other.exec('insert into t (id) values (1)'));
      expect(isDatabaseUnavailable(duplicate)).toBe(false);
      expect(isDatabaseUnavailable(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(true);
    } finally {
      holder.close();
      other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the error handler', () => {
  const app = express();
  app.get('/down', () => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
  });
  app.get('/bug', () => {
    throw new Error('a bug of ours');
  });
  app.use(errorHandler(createLogger('silent'), { isUnavailable: isDatabaseUnavailable }));

  it('answers a database that went away with a 503 problem and Retry-After, a bug with a 500', async () => {
    const down = await request(app).get('/down').expect(503);
    expect(down.type).toBe('application/problem+json');
    expect(down.headers['retry-after']).toBe('5');
    expect(down.body).toEqual({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'The service is briefly unavailable. Try again in a few seconds.' });
    expect(down.text).not.toContain('administrator');
    const bug = await request(app).get('/bug').expect(500);
    expect(bug.headers['retry-after']).toBeUndefined();
  });
});
