import { useEffect, useId, useSyncExternalStore } from 'react';

/**
 * Unread counts for the browser tab's title ("(3) Chat · Frontdesk"), so a staff member sees from
 * another tab that something waits. A page reports what it already counts (`useUnreadTitle`); the
 * root layout, which names the tab, puts the sum in front. A page that goes away takes its count
 * with it, so the title clears when its news is read or the page is left.
 */
const counts = new Map<string, number>();
const listeners = new Set<() => void>();
let total = 0;

function report(source: string, count: number | undefined) {
  if (count) counts.set(source, count);
  else counts.delete(source);
  const next = [...counts.values()].reduce((sum, n) => sum + n, 0);
  if (next === total) return;
  total = next;
  listeners.forEach((listener) => listener());
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const read = () => total;

/** While mounted, this page's unread `count` is in the tab's title. */
export function useUnreadTitle(count: number): void {
  const source = useId();
  useEffect(() => {
    report(source, count);
    return () => report(source, undefined);
  }, [source, count]);
}

/** The unread total every mounted page reports. */
export const useUnreadTotal = (): number => useSyncExternalStore(subscribe, read, read);

/** The title with the count in front; past 99 it says "99+". */
export const withUnread = (title: string, unread: number): string => (unread > 0 ? `(${unread > 99 ? '99+' : unread}) ${title}` : title);
