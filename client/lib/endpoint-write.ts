import { describeEndpoint, type CallInput, type Endpoint, type EndpointDefinition, type EndpointOutput } from '@contracts/endpoint.contract';
import { call, isApiError, type CallOptions } from './api-client';
import { invalidate, invalidateNamed, type ReadFilter } from './reads';

/**
 * The one way the app writes (docs/decisions/0001-one-way-to-write.md): an area's api file declares
 * each write once, as its endpoint plus what the answer changes in the cache; pages and forms call
 * the result like `call`. Nothing else in the client sends a POST, PUT, PATCH or DELETE.
 */

/** Reads a write leaves out of date: every read of an endpoint, or those whose params and query have these values. */
export type Stale = EndpointDefinition | readonly [EndpointDefinition, ReadFilter<EndpointDefinition>];

/** What the caller passed (params, query, body), for effects that depend on it. */
export type WriteInput<E extends Endpoint> = CallInput<E>;

export type WriteEffects<E extends Endpoint> = {
  /**
   * Puts the answer where the reads show it, the way a live event with the same news would; runs
   * before `stale`, so a read that answers meanwhile cannot put the old state back.
   */
  apply?: (answer: EndpointOutput<E>, input: WriteInput<E>) => unknown;
  /** Reads of what the write deleted: dropped without reading again (they would only answer 404). */
  gone?: (input: WriteInput<E>) => readonly Stale[];
  /** Reads now out of date: mounted ones read again (the write resolves once they have), the others are dropped. */
  stale?: readonly Stale[] | ((input: WriteInput<E>, answer: EndpointOutput<E>) => readonly Stale[]);
  /**
   * Reads to refresh when the server refuses because of how things are now (409, 422: sold out,
   * archived meanwhile): the page was showing an older state. The refusal still throws.
   */
  staleWhenRefused?: readonly Stale[];
};

/** A declared write: call it with the endpoint's input (and any `headers`); `endpoint` is there for forms to check bodies with. */
export type Write<E extends Endpoint> = ((...args: CallOptions<E>) => Promise<EndpointOutput<E>>) & { readonly endpoint: E };

const parts = (read: Stale): readonly [EndpointDefinition, ReadFilter<EndpointDefinition>] => ('path' in read ? [read, {}] : read);

const refresh = (reads: readonly Stale[]) => Promise.all(reads.map((read) => invalidate(...parts(read))));

const drop = (reads: readonly Stale[]) => Promise.all(reads.map((read) => invalidate(...parts(read), { gone: true })));

/**
 * The other tabs of this browser hear what a write left out of date and read it again too: a member's
 * page left open in one tab follows a switch made on /kisi/users in another (issue 52), as it would
 * follow its own tab's write.
 */
export const WRITES_CHANNEL = 'frontdesk.writes';
type NamedRead = { endpoint: string; filter: ReadFilter<EndpointDefinition> };
export type StaleNews = { stale: NamedRead[]; gone: NamedRead[] };
const named = (reads: readonly Stale[]): NamedRead[] =>
  reads.map((read) => {
    const [endpoint, filter] = parts(read);
    return { endpoint: describeEndpoint(endpoint), filter };
  });
export const staleNews = (stale: readonly Stale[], gone: readonly Stale[] = []): StaleNews => ({ stale: named(stale), gone: named(gone) });

const writesNews = typeof BroadcastChannel === 'function' ? new BroadcastChannel(WRITES_CHANNEL) : undefined;
// (Node's channel, in the client tests, would keep the test process alive; a browser's has no unref.)
(writesNews as { unref?: () => void } | undefined)?.unref?.();
const isNamedReads = (value: unknown): value is NamedRead[] =>
  Array.isArray(value) && value.every((read) => typeof (read as NamedRead | null)?.endpoint === 'string' && typeof (read as NamedRead).filter === 'object');
writesNews?.addEventListener('message', (event: MessageEvent<Partial<StaleNews> | null>) => {
  const { stale, gone } = event.data ?? {};
  if (isNamedReads(gone)) for (const read of gone) void invalidateNamed(read.endpoint, read.filter ?? {}, { gone: true });
  if (isNamedReads(stale)) for (const read of stale) void invalidateNamed(read.endpoint, read.filter ?? {});
});

/** Declares a write of `endpoint` and what it changes; see `WriteEffects` for the order things happen in. */
export function write<E extends Endpoint>(endpoint: E, effects: WriteEffects<E> = {}): Write<E> {
  const run = async (...args: CallOptions<E>): Promise<EndpointOutput<E>> => {
    const input = (args[0] ?? {}) as WriteInput<E>;
    let answer: EndpointOutput<E>;
    try {
      answer = await call(endpoint, ...args);
    } catch (error) {
      if (effects.staleWhenRefused && (isApiError(error, 409) || isApiError(error, 422))) await refresh(effects.staleWhenRefused);
      throw error;
    }
    const gone = effects.gone?.(input) ?? [];
    if (gone.length) await drop(gone);
    await effects.apply?.(answer, input);
    const stale = (typeof effects.stale === 'function' ? effects.stale(input, answer) : effects.stale) ?? [];
    if (stale.length || gone.length) writesNews?.postMessage(staleNews(stale, gone));
    if (stale.length) await refresh(stale);
    return answer;
  };
  return Object.assign(run, { endpoint });
}
