import { useSyncExternalStore } from 'react';
import * as v from 'valibot';

/**
 * A value the browser remembers between pages and reloads (localStorage), for visitors without
 * an account (a diner's cart, a guest's conversations). It is read back through a schema, so a
 * stale or edited entry falls back to `empty` instead of breaking the page. Other tabs see
 * changes through `storage`. Where storage is refused (some private modes) the value lives in
 * memory for the page's lifetime.
 */
export type Store<T> = { read: () => T; write: (value: T) => void; subscribe: (listener: () => void) => () => void };

export function storedValue<T>(key: string, schema: v.GenericSchema<unknown, T>, empty: T): Store<T> {
  const listeners = new Set<() => void>();
  // The text last read or written, and its parsed value: the same text gives the same object (useSyncExternalStore needs that).
  let raw: string | null = null;
  let value = empty;
  let memoryOnly = false;

  const parse = (text: string | null): T => {
    if (text === null) return empty;
    try {
      const parsed = v.safeParse(schema, JSON.parse(text));
      return parsed.success ? parsed.output : empty;
    } catch {
      return empty;
    }
  };

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
      value = parse(now);
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

/** A stored value in a component, which renders again when it changes (here or in another tab). */
export const useStored = <T>(store: Store<T>): T => useSyncExternalStore(store.subscribe, store.read, store.read);
