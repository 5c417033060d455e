import { useSyncExternalStore } from 'react';
import * as v from 'valibot';

/**
 * What a guest's browser remembers (localStorage) so a reload or a later visit to the help page
 * shows their conversation again: the ids of the conversations started here (the httpOnly `guest`
 * cookie is what lets this device read them; the id only says which to show), and who they said
 * they were, to fill in the next request. Read back through a schema: a stale or edited entry
 * falls back to empty. Other tabs see changes through `storage`.
 */

type Store<T> = { read: () => T; write: (value: T) => void; subscribe: (listener: () => void) => () => void };

function storedValue<T>(key: string, schema: v.GenericSchema<unknown, T>, empty: T): Store<T> {
  const listeners = new Set<() => void>();
  // The text last seen and its value: the same text gives the same object (useSyncExternalStore needs that).
  let raw: string | null = null;
  let value = empty;
  // Where storage is refused (some private modes) the value lives in memory for the page's lifetime.
  let memoryOnly = false;

  const read = (): T => {
    if (memoryOnly) return value;
    let now: string | null;
    try {
      now = window.localStorage.getItem(key);
    } catch {
      return value;
    }
    if (now !== raw) {
      raw = now;
      try {
        const parsed = now === null ? undefined : v.safeParse(schema, JSON.parse(now));
        value = parsed?.success ? parsed.output : empty;
      } catch {
        value = empty;
      }
    }
    return value;
  };

  const write = (next: T) => {
    value = next;
    raw = JSON.stringify(next);
    try {
      window.localStorage.setItem(key, raw);
    } catch {
      memoryOnly = true;
    }
    listeners.forEach((listener) => listener());
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === key || event.key === null) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  };

  return { read, write, subscribe };
}

const useStored = <T>(store: Store<T>): T => useSyncExternalStore(store.subscribe, store.read, store.read);

// ---- the conversations started on this device -------------------------------------------------

const RememberedSchema = v.object({ id: v.pipe(v.number(), v.integer(), v.minValue(1)), startedAt: v.string() });
export type RememberedConversation = v.InferOutput<typeof RememberedSchema>;
/** Enough for a visit or two; older ones drop off. */
export const REMEMBERED_CONVERSATIONS = 5;

const conversationsStore = storedValue<RememberedConversation[]>('frontdesk.help.conversations', v.array(RememberedSchema), []);

/** Newest first. */
export const useRememberedConversations = () => useStored(conversationsStore);
export const rememberedConversations = () => conversationsStore.read();

export function rememberConversation(id: number, startedAt = new Date().toISOString()) {
  conversationsStore.write([{ id, startedAt }, ...conversationsStore.read().filter((c) => c.id !== id)].slice(0, REMEMBERED_CONVERSATIONS));
}

/** This device cannot open it any more (the cookie is gone, or the conversation is): stop showing it. */
export function forgetConversation(id: number) {
  const list = conversationsStore.read();
  if (list.some((c) => c.id === id)) conversationsStore.write(list.filter((c) => c.id !== id));
}

// ---- who the guest said they were -----------------------------------------------------------------

const GuestSchema = v.object({ name: v.string(), table: v.nullable(v.number()), email: v.nullable(v.string()) });
export type GuestDetails = v.InferOutput<typeof GuestSchema>;

const guestStore = storedValue<GuestDetails | null>('frontdesk.help.guest', v.nullable(GuestSchema), null);

export const rememberedGuest = () => guestStore.read();
export const rememberGuest = (guest: GuestDetails) => guestStore.write(guest);
