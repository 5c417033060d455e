import { useSyncExternalStore } from 'react';

/**
 * The counter lives outside React, so leaving the page and coming back keeps it; it is also kept in
 * sessionStorage, so a reload of the tab keeps it too.
 */
const STORAGE_KEY = 'frontdesk:counter';

function readStored(): number {
  try {
    const n = Number(window.sessionStorage.getItem(STORAGE_KEY));
    return Number.isFinite(n) ? n : 0;
  } catch {
    return 0;
  }
}

let count: number | undefined;
const listeners = new Set<() => void>();

export function getCount(): number {
  if (count === undefined) count = readStored();
  return count;
}

export function setCount(next: number) {
  count = next;
  try {
    window.sessionStorage.setItem(STORAGE_KEY, String(next));
  } catch {
    // storage is optional
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useCount(): number {
  return useSyncExternalStore(subscribe, getCount, getCount);
}

/** For tests. */
export function resetCounter() {
  count = undefined;
  try {
    window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // ignore
  }
}
