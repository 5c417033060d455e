import fs from 'node:fs';
import http, { type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { ConfigError } from './config';
import { isPostgresUrl, sqliteFileOf } from './db/engine';
import { problemJson } from './lib/problem';
import { answerProtocolErrors } from './lib/protocol-errors';
import { indexFileOf } from './lib/static.middleware';

/**
 * How a start fails: one plain line for whoever started the process (a new user at a terminal, a
 * service manager's log) saying what is wrong and what to do, never an error object or a stack.
 */
export class StartError extends Error {
  override name = 'StartError';
}

type SystemError = Error & { code?: string; path?: string };

const codeOf = (err: unknown): string | undefined => (err as SystemError | undefined)?.code;

/** A PostgreSQL URL without its password (`postgres://user:secret@host/db` → `postgres://user@host/db`). */
const withoutPassword = (text: string): string => text.replace(/(postgres(?:ql)?:\/\/[^:@/\s]*):[^@/\s]*@/gi, '$1@');

/** The first line of an error's message, any database password taken out. */
const firstLine = (err: unknown): string => {
  // Some errors carry only a code (a refused connection to every address of a name is an AggregateError without a message).
  const text = err instanceof Error ? err.message || codeOf(err) || err.name : String(err);
  return withoutPassword(text.split('\n')[0]!.trim());
};

const isDirectory = (file: string): boolean => fs.statSync(file, { throwIfNoEntry: false })?.isDirectory() ?? false;

const sentence = (text: string): string => (/[.?!]$/.test(text) ? text : `${text}.`);

/** Refuses a start without the built client: every page would be a bare 404. */
export function requireClientBuild(staticDir: string): void {
  if (fs.existsSync(indexFileOf(staticDir))) return;
  throw new StartError(`No client build in ${path.resolve(staticDir)} (index.html is missing): run \`npm run build\` first, or \`npm start\`, which builds and then starts.`);
}

/** Why a listen failed, for the one who set PORT and HOST. */
export function listenFailure(err: unknown, port: number, host: string): StartError {
  switch (codeOf(err)) {
    case 'EADDRINUSE':
      return new StartError(`Port ${port} is already in use: stop the other process or set PORT.`);
    case 'EACCES':
      return new StartError(`Port ${port} needs privileges this user does not have: set PORT to 1024 or above.`);
    case 'EADDRNOTAVAIL':
      return new StartError(`HOST ${host} is not an address of this machine: set HOST (0.0.0.0 listens on all of them).`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new StartError(`HOST ${host} is not a known host name: set HOST to an address of this machine.`);
    default:
      return new StartError(`Cannot listen on ${host}:${port}: ${firstLine(err)}`);
  }
}

function sqliteReason(err: unknown, file: string): string {
  const code = codeOf(err) ?? '';
  const dir = path.dirname(file);
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `this user may not create ${(err as SystemError).path ?? dir}`;
  if (code === 'ENOTDIR' || code === 'EEXIST') return `${(err as SystemError).path ?? dir} is not a directory`;
  if (code === 'SQLITE_CANTOPEN' && isDirectory(file)) return 'that is a directory; name a file in it';
  if (code === 'SQLITE_CANTOPEN') return `SQLite cannot open or create it; check that ${dir} exists and that this user may write to it (SQLite also writes -wal and -shm files beside it)`;
  if (code.startsWith('SQLITE_READONLY')) return `it is read-only for this user, or so is ${dir}`;
  if (code === 'SQLITE_NOTADB') return 'the file is not a SQLite database';
  return firstLine(err);
}

function postgresReason(err: unknown, databaseUrl: string): string {
  let host = 'its host';
  let where = 'its host and port';
  try {
    const url = new URL(databaseUrl);
    host = url.hostname;
    where = `${url.hostname}:${url.port || '5432'}`;
  } catch {
    // The config accepted it, but URL cannot take it apart: say it without naming the host.
  }
  switch (codeOf(err)) {
    case 'ECONNREFUSED':
      return `nothing accepts connections at ${where}; is PostgreSQL running there?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host ${host} is not known`;
    case 'ETIMEDOUT':
      return `no answer from ${where}`;
    default:
      return firstLine(err); // PostgreSQL's own words: a refused login, a database that does not exist, a failed migration
  }
}

/** Why the database named by DATABASE_URL could not be opened (or migrated), without its password. */
export function databaseFailure(err: unknown, databaseUrl: string): StartError {
  if (isPostgresUrl(databaseUrl)) {
    return new StartError(sentence(`Cannot open the PostgreSQL database ${withoutPassword(databaseUrl)} (DATABASE_URL): ${postgresReason(err, databaseUrl)}`));
  }
  const file = sqliteFileOf(databaseUrl);
  const where = file === ':memory:' ? file : path.resolve(file);
  return new StartError(sentence(`Cannot open the SQLite database ${where} (DATABASE_URL): ${sqliteReason(err, where)}`));
}

/**
 * What a page load gets while the instance starts: a line saying so, and the page again a second later
 * by itself. Behind a balancer that passes the app's 503s on (deploy/nginx.conf.template), a browser may
 * open a page on an instance that is starting: it must not show the API's JSON.
 */
const STARTING_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="1"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  '<title>Frontdesk is starting</title></head><body><p>Frontdesk is starting; this page loads again in a moment.</p></body></html>';

/** A browser opening a page (not the API, not a file a page asks for): it reads HTML. */
const isPageLoad = (req: IncomingMessage): boolean =>
  (req.method === 'GET' || req.method === 'HEAD') && !(req.url ?? '').startsWith('/api/') && (req.headers.accept ?? '').includes('text/html');

/** What a request gets while the server listens but is not ready yet (database, seed, Kisi): 503 with Retry-After: 1. */
function answerStarting(req: IncomingMessage, res: ServerResponse): void {
  const headers = { 'Retry-After': '1', 'Cache-Control': 'no-store' };
  if (isPageLoad(req)) {
    res.writeHead(503, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'none'" });
    res.end(req.method === 'HEAD' ? undefined : STARTING_PAGE);
    return;
  }
  res.writeHead(503, { ...headers, 'Content-Type': 'application/problem+json' });
  res.end(problemJson(503, 'Frontdesk is starting; try again in a moment.'));
}

export interface Listening {
  server: Server;
  /** Hands requests to the app from now on: the server is ready. */
  serve: (app: RequestListener) => void;
  /** Closes it at once, connections and all (for a start that failed). */
  close: () => Promise<void>;
}

/**
 * Listens before anything else is done, so that a port in use (or a wrong HOST) is refused before
 * the database is touched; until `serve` is called every request is answered 503.
 */
export async function listenFirst(port: number, host: string): Promise<Listening> {
  const server = http.createServer(answerStarting);
  answerProtocolErrors(server);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    throw listenFailure(err, port, host);
  }
  return {
    server,
    serve: (app) => {
      server.off('request', answerStarting);
      server.on('request', app);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The one line a failed start prints: the refusal's own words, or what failed, never a stack. */
export function startFailureLine(err: unknown): string {
  if (err instanceof StartError || err instanceof ConfigError) return err.message;
  return `Frontdesk could not start: ${firstLine(err)}`;
}
