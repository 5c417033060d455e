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

interface KisiUserJson {
  id: number;
  name?: string | null;
  email: string;
  access_enabled?: boolean;
}

const toSummary = (u: KisiUserJson): KisiUserSummary => ({ id: u.id, name: u.name ?? null, email: u.email, accessEnabled: u.access_enabled === true });

/**
 * The server-side Kisi client (for the gym's door-access sync and the webhook receiver): same key,
 * base URL, timeout and rate limiter as the browser-facing proxy.
 */
export function kisiClient(settings: KisiSettings, limiter: RateLimiter) {
  async function request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T | undefined; headers: Headers }> {
    const signal = AbortSignal.timeout(settings.timeoutMs);
    await limiter.acquire(signal);
    let res: Response;
    try {
      res = await fetch(`${settings.baseUrl}${path}`, {
        method,
        headers: { Authorization: `KISI-LOGIN ${settings.apiKey}`, Accept: 'application/json', 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
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
    if (!res.ok) {
      const detail = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? `: ${String((parsed as { error: unknown }).error)}` : '';
      throw new KisiError(`Kisi answered ${res.status} to ${method} ${path.split('?')[0]}${detail}`, res.status, parsed);
    }
    return { status: res.status, body: parsed as T | undefined, headers: res.headers };
  }

  return {
    request,
    async findUserByEmail(email: string): Promise<KisiUserSummary | null> {
      const { body } = await request<KisiUserJson[]>('GET', `/users?email=${encodeURIComponent(email)}&limit=10`);
      const user = (body ?? []).find((u) => u.email.toLowerCase() === email.toLowerCase());
      return user ? toSummary(user) : null;
    },
    async getUser(id: number): Promise<KisiUserSummary | null> {
      try {
        const { body } = await request<KisiUserJson>('GET', `/users/${id}`);
        return body ? toSummary(body) : null;
      } catch (err) {
        if (err instanceof KisiError && err.status === 404) return null;
        throw err;
      }
    },
    /** PATCH answers 204 and ignores `scim_access_enabled` (read-only), so only access_enabled is sent. */
    async setAccess(id: number, enabled: boolean): Promise<void> {
      await request('PATCH', `/users/${id}`, { user: { access_enabled: enabled } });
    },
  };
}
export type KisiClient = ReturnType<typeof kisiClient>;

/** The gym's door-access provider (gym.service DoorAccess) backed by Kisi. */
export const kisiDoorAccess = (client: KisiClient) => ({
  findUser: (email: string) => client.findUserByEmail(email),
  setAccess: (kisiUserId: number, enabled: boolean) => client.setAccess(kisiUserId, enabled),
});
