/**
 * Kisi's JavaScript client (kisi-client 8, which the emulator's tests drive it with) ships no
 * types: what it exposes, as read from its source. The constructor's config goes to axios.create;
 * responses come back with camelCase keys, and a list answered with X-Collection-Range becomes
 * `{ pagination, data }`. A failure throws a KisiError (status, code, reason).
 */
declare module 'kisi-client' {
  export interface KisiPage<T> {
    pagination: { offset: number; limit: number; count: number };
    data: T[];
  }

  export interface KisiError extends Error {
    status: number;
    code: string;
    reason: unknown;
  }

  export default class Kisi {
    constructor(config?: { baseURL?: string; timeout?: number; headers?: Record<string, string> });
    setLoginSecret(secret: string | null): void;
    get<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T>;
    post<T = unknown>(path: string, data?: unknown): Promise<T>;
    put<T = unknown>(path: string, data?: unknown): Promise<T>;
    delete<T = unknown>(path: string, params?: Record<string, unknown>): Promise<T>;
  }
}
