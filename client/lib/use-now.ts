import { useEffect, useState } from 'react';

/**
 * The current time (ms), moving on every `intervalMs`: for what a page says about time that
 * changes while it stays open without any new data (relative times, ticket ages, "Today").
 */
export function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
