import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { Router, type Request, type Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, fixRequestBody, proxyEventsPlugin, type Plugin } from 'http-proxy-middleware';
import { KISI_PROXY_PREFIX, LINK_ENDED, kisiApi, linkEndsLater } from '../contracts/kisi.contract';
import type { Endpoint } from '../contracts/endpoint.contract';
import { assertAccess, parseInput, textWithNul } from '../lib/endpoint-router';
import type { Audit } from '../db/audit-trail';
import type { RemoteUnlockOutcome, RemoteUnlockRequests } from '../db/remote-unlocks';
import { badRequest, forbidden, notFound, unauthorized } from '../lib/http-error';
import type { Logger } from '../lib/logger';
import { sendProblem } from '../lib/problem';
import { nameRoute } from '../lib/route-name';
import type { KisiClient, KisiNamedList, KisiSettings } from './kisi-client';
import { kisiWriteRecord, type KisiWrite } from './proxy-audit';
import type { RateLimiter } from './rate-limiter';

/** The list that names what a write by id removes or opens, for its audit entry. */
const LIST_NAMING = new Map<Endpoint, KisiNamedList>([
  [kisiApi.deleteGroupLink, kisiApi.listGroupLinks],
  [kisiApi.unlockLock, kisiApi.listLocks],
  [kisiApi.deleteGroup, kisiApi.listGroups],
]);

/** Browser headers that must never reach Kisi. */
const STRIPPED_HEADERS = ['cookie', 'authorization', 'proxy-authorization', 'origin', 'referer', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip'];

export interface KisiProxyDeps {
  settings: KisiSettings;
  limiter: RateLimiter;
  logger: Logger;
  /** Reads a Kisi user before a switch, and what a write removes or opens by its name, for the audit trail. */
  client: Pick<KisiClient, 'getUser' | 'labelOf'>;
  /** The audit trail: every write Kisi accepted, as the signed-in account's. */
  audit: Audit;
  /** Told of every change to a Kisi user that Kisi accepted (the gym's memory of Kisi users forgets it). */
  userChanged?: (kisiUserId: number) => void;
  /**
   * Remote unlocks recorded before they go (decision 0103): Kisi logs them as the API key's own user,
   * and the door event is credited to the account that pressed it once it is stored.
   */
  remoteUnlocks?: { apiAccountId: () => Promise<number>; requests: RemoteUnlockRequests };
}

/**
 * What Kisi made of a remote unlock by its status: 2xx opened the door; a door locked down (409) or
 * offline (503) is a refusal Kisi logs as a refused event of the key's user; anything else logged
 * nothing for certain (404 is an unknown door as well as a person without access; a refused key, the
 * rate limit): the record goes, unless its event already came.
 */
const unlockOutcome = (status: number): RemoteUnlockOutcome => (status < 300 ? 'accepted' : status === 409 || status === 503 ? 'refused' : 'lost');

/**
 * `/api/kisi/*` → `${KISI_BASE_URL}/*` (docs/ARCHITECTURE.md "Kisi"): session and role checks, the
 * allowlist, the outgoing rate limit, the key added on the server; Kisi's status codes, bodies and
 * X-Collection-Range pass through; 502/504 problems when Kisi is unreachable or silent.
 */
export function kisiProxy({ settings, limiter, logger, client, audit, userChanged, remoteUnlocks }: KisiProxyDeps) {
  const timedOut = new WeakSet<Request>();
  // The writes on their way to Kisi, for the audit entry written once Kisi accepts one.
  const writes = new WeakMap<Request, KisiWrite>();
  // http-proxy opens a new connection per request unless given an agent: keep connections to Kisi alive. No
  // socket cap: a request queued for a socket would get its 'proxyReq' event after its headers were flushed.
  const agent = settings.baseUrl.startsWith('https:') ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const router = Router();

  // The Kisi calls the app makes, from their endpoint descriptions, matched as Express matches every
  // route: the only ones the proxy forwards. A match checks the call and goes on past the allowlist.
  const allowlist = Router();
  allowlist.use((req, _res, next) => {
    if (!req.user) throw unauthorized();
    next();
  });
  for (const endpoint of Object.values(kisiApi)) {
    const method = endpoint.method.toLowerCase() as Lowercase<Endpoint['method']>;
    allowlist[method](endpoint.path.slice(KISI_PROXY_PREFIX.length), (req: Request, res: Response, next: (to?: 'router') => void) => {
      nameRoute(res, endpoint.path);
      admit(endpoint, req);
      if (endpoint.method !== 'GET') {
        writes.set(req, { endpoint, id: typeof req.params.id === 'string' ? req.params.id : null, body: req.body as KisiWrite['body'] });
        sendAfterAudit(req, res);
      }
      next('router');
    });
  }
  allowlist.use((req) => {
    throw notFound(`Frontdesk does not forward ${req.method} ${req.path} to Kisi.`);
  });
  // The answer to a write Kisi accepted goes out once its audit entry is stored: whoever reads the
  // trail after the answer finds it (the entry cannot share Kisi's transaction, but it need not lag
  // behind its answer). Kisi's bytes are held, not its headers' content: the status, headers and body
  // go out as they came, only later (a client reading up to Content-Length would not wait for end()).
  const recorded = new WeakMap<Request, Promise<void>>();
  const sendAfterAudit = (req: Request, res: Response) => {
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    const held: Array<() => void> = [];
    let released = false;
    const inOrder = (send: () => void) => {
      const entry = recorded.get(req);
      if (!entry || released) return send();
      if (held.length === 0) {
        void entry.finally(() => {
          released = true;
          for (const go of held.splice(0)) go();
        });
      }
      held.push(send);
    };
    res.write = ((...args: unknown[]) => (inOrder(() => void write(...args)), true)) as Response['write'];
    res.end = ((...args: unknown[]) => (inOrder(() => void end(...args)), res)) as Response['end'];
  };
  const admit = (endpoint: Endpoint, req: Request) => {
    // Ids are checked here; query and body go to Kisi as sent, so its own validation (422) answers.
    parseInput({ ...endpoint, query: undefined, body: undefined }, { params: req.params, query: {}, body: undefined });
    assertAccess(endpoint.access, req.user);
    // Only text holding NUL is refused first: no one means it, and it would reach Kisi's (or the emulator's) database.
    const nul = [...textWithNul('query', req.query), ...textWithNul('body', req.body)];
    if (nul.length > 0) throw badRequest('The request has invalid fields.', nul);
    // Access links always go to the configured group (KISI_GROUP_ID) unless the caller names one.
    if (endpoint === kisiApi.createGroupLink) {
      const body = req.body as { group_link?: Record<string, unknown> } | undefined;
      if (body && typeof body.group_link === 'object' && body.group_link !== null && body.group_link.group_id === undefined) body.group_link.group_id = settings.groupId;
      // Staff hand out day passes to the gym's doors only (decision 0057): another group's doors are an admin's to give.
      // (A body without a link object goes on to Kisi's own 422.)
      const named = body?.group_link?.group_id;
      if (req.user!.role !== 'admin' && named !== undefined && named !== settings.groupId) throw forbidden('Staff may create access links only for the gym’s own group.');
      // Kisi would make a link that has already ended (shown Expired at once, its secret handed out, audited): refused first, in the form's words.
      if (typeof body?.group_link === 'object' && body.group_link !== null && !linkEndsLater(body.group_link.valid_until)) {
        throw badRequest('The request has invalid fields.', [{ path: 'body.group_link.valid_until', message: LINK_ENDED }]);
      }
    }
    // The outgoing request copies these headers: drop the browser's credentials before it is built.
    for (const name of STRIPPED_HEADERS) delete req.headers[name];
    // A JSON body was inflated and parsed here and goes on re-serialised: its Content-Encoding no longer says what Kisi gets.
    if (req.body !== undefined) delete req.headers['content-encoding'];
  };
  router.use(allowlist);

  // A switch of a Kisi user is audited with the user's state before it, and a link revoked, a group
  // deleted or a door opened by its name (Kisi has no read of one link by id: its list picks it by
  // `ids`). A read that fails leaves the trail with the id.
  router.use(async (req, _res, next) => {
    const write = writes.get(req);
    const list = write && LIST_NAMING.get(write.endpoint);
    if (write?.endpoint === kisiApi.updateUser && write.id) write.before = await client.getUser(Number(write.id)).catch(() => null);
    else if (write?.id && list) write.label = await client.labelOf(list, Number(write.id)).catch(() => null);
    next();
  });

  // A remote unlock is recorded, committed, before it goes: its webhook may arrive before Kisi's answer
  // does. Settled once by Kisi's answer, or as lost when none came (Kisi unreachable, silent, or the
  // caller left first). Without a record (Kisi could not say who the key is, the database failed) the
  // door still opens, and its event names the integration as before.
  const unlockSettles = new WeakMap<Request, (outcome: RemoteUnlockOutcome) => Promise<void>>();
  router.use(async (req, res, next) => {
    const write = writes.get(req);
    if (!remoteUnlocks || write?.endpoint !== kisiApi.unlockLock || !write.id || !req.user) return next();
    let id: number;
    try {
      const kisiUserId = await remoteUnlocks.apiAccountId();
      id = await remoteUnlocks.requests.record({ lockId: Number(write.id), kisiUserId, account: req.user, at: new Date().toISOString() });
    } catch (err) {
      (req.log ?? logger).warn({ err: err instanceof Error ? err.message : String(err) }, 'kisi proxy: a remote unlock goes on without a record of who pressed it');
      return next();
    }
    // The first outcome holds; the answer goes out once it is stored (as an audit entry), so a refusal
    // the caller reads has left no record behind.
    let settled: Promise<void> | undefined;
    const settle = (outcome: RemoteUnlockOutcome) =>
      (settled ??= remoteUnlocks.requests.settle(id, outcome).catch((err: unknown) => logger.error({ err }, 'kisi proxy: the outcome of a remote unlock could not be stored')));
    unlockSettles.set(req, settle);
    res.once('close', () => void settle('lost'));
    next();
  });

  // Kisi allows 5 requests/s: wait for a slot (never drop); a client that leaves gives its place up.
  router.use(async (req, res, next) => {
    const gone = new AbortController();
    const onClose = () => gone.abort(new Error('client closed the request'));
    res.once('close', onClose);
    try {
      await limiter.acquire(gone.signal);
    } catch (err) {
      // A caller that left needs no answer; a window that could not be read is the server's error.
      return gone.signal.aborted ? undefined : next(err);
    } finally {
      res.off('close', onClose);
    }
    next();
  });

  router.use(
    createProxyMiddleware<Request, Response>({
      target: settings.baseUrl,
      changeOrigin: true,
      xfwd: false,
      agent,
      headers: { Authorization: `KISI-LOGIN ${settings.apiKey}`, Accept: 'application/json', 'Content-Type': 'application/json' },
      ejectPlugins: true,
      plugins: [debugProxyErrorsPlugin, proxyEventsPlugin] as unknown as Plugin<Request, Response>[],
      on: {
        proxyReq: (proxyReq: ClientRequest, req: Request) => {
          proxyReq.setTimeout(settings.timeoutMs, () => {
            timedOut.add(req);
            proxyReq.destroy(new Error('Kisi did not answer in time'));
          });
          // express.json() already read the body: send the parsed body on (never write into a request already sent).
          if (!proxyReq.headersSent) fixRequestBody(proxyReq, req);
          else if (req.body !== undefined) proxyReq.destroy(new Error('request body could not be forwarded'));
        },
        proxyRes: (proxyRes, req: Request) => {
          delete proxyRes.headers['set-cookie'];
          const unlockSettled = unlockSettles.get(req)?.(unlockOutcome(proxyRes.statusCode!));
          const write = writes.get(req);
          const record = write && proxyRes.statusCode! < 300 ? kisiWriteRecord(write) : undefined;
          const audited = record && audit(req.user ?? null, record).catch((err: unknown) => logger.error({ err }, 'the audit entry of a Kisi write could not be stored'));
          if (unlockSettled || audited) recorded.set(req, Promise.all([unlockSettled, audited]).then(() => undefined));
          if (write?.endpoint === kisiApi.updateUser && write.id && proxyRes.statusCode! < 300) userChanged?.(Number(write.id));
          // A 401 from Kisi means the server's key is wrong, not the user's session: the browser must not take it
          // for its own 401 (which would send the user to the login page).
          if (proxyRes.statusCode === 401) {
            proxyRes.statusCode = 502;
            proxyRes.headers['x-kisi-status'] = '401';
            logger.error('Kisi rejected the API key (401): check KISI_API_KEY');
          }
        },
        error: (err, req, res) => {
          const request = req as Request;
          const unlockSettled = unlockSettles.get(request)?.('lost');
          if (unlockSettled) recorded.set(request, unlockSettled);
          const late = timedOut.has(request);
          (request.log ?? logger).warn({ code: (err as NodeJS.ErrnoException).code, timedOut: late }, 'kisi proxy: upstream failed');
          const response = res as Response;
          if (typeof response.writeHead !== 'function') return;
          if (response.headersSent) return void response.destroy();
          if (late) sendProblem(response, 504, `Kisi did not answer within ${settings.timeoutMs} ms.`);
          else sendProblem(response, 502, 'Kisi could not be reached. Try again in a moment.');
        },
      },
    }),
  );
  return router;
}
