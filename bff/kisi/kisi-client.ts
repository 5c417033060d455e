import * as v from 'valibot';
import { urlOf, type CallInput, type Endpoint, type EndpointOutput } from '../contracts/endpoint.contract';
import { KISI_PROXY_PREFIX, KisiErrorSchema, kisiApi, parseCollectionRange, type KisiLogEvent, type KisiUser } from '../contracts/kisi.contract';
import type { RateLimiter } from './rate-limiter';

/** Where the BFF reaches Kisi (the real one, or the in-process emulator) and with which key. */
export interface KisiSettings {
  mode: 'emulator' | 'remote';
  baseUrl: string;
  apiKey: string;
  /** The group access links are created in (KISI_GROUP_ID; in emulator mode the seeded one). */
  groupId: number;
  timeoutMs: number;
  /** Shared with Kisi's event webhook integration; without it every webhook is refused. */
  webhookSecret?: string;
}

/** A non-2xx answer from Kisi, or no answer. The message never contains the key. */
export class KisiError extends Error {
  override name = 'KisiError';
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export interface KisiUserSummary {
  id: number;
  name: string | null;
  email: string;
  accessEnabled: boolean;
}

/** Kisi's lists whose items the audit trail names (`labelOf`): access links, locks, groups. */
export type KisiNamedList = typeof kisiApi.listGroupLinks | typeof kisiApi.listLocks | typeof kisiApi.listGroups;

const toSummary = (u: KisiUser): KisiUserSummary => ({ id: u.id, name: u.name, email: u.email, accessEnabled: u.access_enabled });

/** What Kisi said when it refused: its `{error}` text when the body is Kisi's error shape. */
function refusal(body: unknown): string {
  const parsed = v.safeParse(KisiErrorSchema, body);
  return parsed.success ? `: ${parsed.output.error}` : '';
}

/**
 * The server-side Kisi client (for the gym's door-access sync and the webhook receiver): the same
 * endpoint descriptions, key, base URL, timeout and rate limiter as the browser-facing proxy, and
 * every answer parsed with its endpoint's schema.
 */
export function kisiClient(settings: KisiSettings, limiter: RateLimiter) {
  /** The parsed answer and its headers; `stop` gives up early (the caller is shutting down). */
  async function send<E extends Endpoint>(endpoint: E, input: CallInput<E>, stop?: AbortSignal): Promise<{ body: EndpointOutput<E>; headers: Headers }> {
    const path = urlOf({ path: endpoint.path.slice(KISI_PROXY_PREFIX.length) }, input as Parameters<typeof urlOf>[1]);
    const what = `${endpoint.method} ${path.split('?')[0]}`;
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout;
    await limiter.acquire(signal);
    let res: Response;
    try {
      const body = (input as { body?: unknown }).body;
      res = await fetch(`${settings.baseUrl}${path}`, {
        method: endpoint.method,
        headers: { Authorization: `KISI-LOGIN ${settings.apiKey}`, Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (stop?.aborted) throw new KisiError(`${what} was given up`, undefined);
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      throw new KisiError(timedOut ? `Kisi did not answer within ${settings.timeoutMs} ms` : 'Kisi is unreachable', undefined);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    if (!res.ok) throw new KisiError(`Kisi answered ${res.status} to ${what}${refusal(parsed)}`, res.status, parsed);
    const answer = v.safeParse(endpoint.response, parsed);
    if (!answer.success) throw new KisiError(`Kisi answered ${what} with a body Frontdesk does not understand (${v.getDotPath(answer.issues[0]) ?? 'body'}: ${answer.issues[0].message})`, res.status, parsed);
    return { body: answer.output as EndpointOutput<E>, headers: res.headers };
  }
  const call = async <E extends Endpoint>(endpoint: E, input: CallInput<E>): Promise<EndpointOutput<E>> => (await send(endpoint, input)).body;

  return {
    async findUserByEmail(email: string): Promise<KisiUserSummary | null> {
      const users = await call(kisiApi.listUsers, { query: { email, limit: 10 } });
      const user = users.find((u) => u.email.toLowerCase() === email.toLowerCase());
      return user ? toSummary(user) : null;
    },
    /** One page of Kisi's users (by Kisi's default order), and how many there are in all (from `X-Collection-Range`). */
    async listUsers(page: { offset: number; limit: number }): Promise<{ users: KisiUserSummary[]; total: number | undefined }> {
      const { body, headers } = await send(kisiApi.listUsers, { query: page });
      return { users: body.map(toSummary), total: parseCollectionRange(headers.get('X-Collection-Range'))?.total };
    },
    /**
     * How the audit trail names one access link, lock or group (its name, and a link's email): read
     * before a write changes or removes it. Null when Kisi has none with that id.
     */
    async labelOf(list: KisiNamedList, id: number): Promise<string | null> {
      const items: Array<{ id: number; name: string; email?: string | null }> = await call(list, { query: { ids: String(id) } });
      const item = items.find((i) => i.id === id);
      return item ? `${item.name}${item.email ? ` <${item.email}>` : ''}` : null;
    },
    /**
     * The Kisi user the API key belongs to (`GET /users?user_id=me`, docs/kisi-api.md §4): the actor
     * Kisi names on the remote unlocks the proxy forwards (decision 0103).
     */
    async currentUserId(): Promise<number> {
      const [me] = await call(kisiApi.listUsers, { query: { user_id: 'me', limit: 1 } });
      if (!me) throw new KisiError('Kisi names no user for the API key (GET /users?user_id=me is empty)', 200);
      return me.id;
    },
    /** `stop` gives up early, also while waiting for a slot of the rate limit. */
    async getUser(id: number, stop?: AbortSignal): Promise<KisiUserSummary | null> {
      try {
        return toSummary((await send(kisiApi.getUser, { params: { id } }, stop)).body);
      } catch (err) {
        if (err instanceof KisiError && err.status === 404) return null;
        throw err;
      }
    },
    /**
     * One page of Kisi's event log, newest first, and how many events match in all (from
     * `X-Collection-Range`; undefined when Kisi leaves the header out).
     */
    async listEvents(
      query: { types?: readonly string[]; since?: string; until?: string; offset: number; limit: number },
      stop?: AbortSignal,
    ): Promise<{ events: KisiLogEvent[]; total: number | undefined }> {
      const { body, headers } = await send(
        kisiApi.listEvents,
        { query: { type: query.types?.join(','), since: query.since, until: query.until, offset: query.offset, limit: query.limit } },
        stop,
      );
      return { events: body, total: parseCollectionRange(headers.get('X-Collection-Range'))?.total };
    },
    /** PATCH answers 204 and ignores `scim_access_enabled` (read-only), so only access_enabled is sent. */
    async setAccess(id: number, enabled: boolean): Promise<void> {
      await call(kisiApi.updateUser, { params: { id }, body: { user: { access_enabled: enabled } } });
    },
  };
}
export type KisiClient = ReturnType<typeof kisiClient>;
