import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end counts as "at the newest entry". */
export const AT_NEWEST_PX = 48;

const isAtNewest = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight <= AT_NEWEST_PX;

/** An entry of a log that follows its newest one: a chat message, a guest conversation's message. */
interface LogEntry {
  id: number;
}

export interface FollowNewestOptions<T extends LogEntry> {
  /** Every entry shown, in any order (ids grow with time). */
  entries: readonly T[];
  /** The reader's own: one they send is always scrolled to. */
  isMine: (entry: T) => boolean;
  /** Whether an entry that came while the reader was scrolled back counts as new to them (default: all of the others'). */
  counts?: (entry: T) => boolean;
}

export interface FollowedLog {
  /** The scrolling element (the log). */
  ref: RefObject<HTMLDivElement | null>;
  /** Its scroll handler; returns the element, for what else a scroll does (loading older entries). */
  onScroll: () => HTMLDivElement | undefined;
  /** The reader is at the newest entry. */
  atNewest: boolean;
  /** Entries of the others that came while the reader was scrolled back (for a "N new" button). */
  unseen: number;
  /** To the newest entry, the keyboard focus on the log (the "N new" button goes away). */
  jumpToNewest: () => void;
}

/**
 * A log that follows its newest entry while the reader is there: new entries scroll into view, and
 * one the reader sent always does; scrolled back to read, the place is kept and the others' new
 * entries are counted. Older entries put in above keep the reader's place, and a log whose box
 * changes size (a composer grows, the phone's keyboard opens) stays at the newest if it was there.
 */
export function useFollowNewest<T extends LogEntry>({ entries, isMine, counts = () => true }: FollowNewestOptions<T>): FollowedLog {
  const ref = useRef<HTMLDivElement>(null);
  const atNewestRef = useRef(true);
  const [atNewest, setAtNewest] = useState(true);
  let newestId = 0;
  let oldestId = 0;
  for (const entry of entries) {
    if (entry.id > newestId) newestId = entry.id;
    if (oldestId === 0 || entry.id < oldestId) oldestId = entry.id;
  }
  /** The newest entry the reader has been at: what came after it, theirs, is unseen. */
  const [seenUpTo, setSeenUpTo] = useState(newestId);
  /** The entries and the log's height at the last commit (what a change is measured against). */
  const seen = useRef<{ newestId: number; oldestId: number; height: number } | null>(null);
  // The latest props for the layout effect below, which runs only when the entries change.
  const latest = useRef({ entries, isMine });
  useLayoutEffect(() => {
    latest.current = { entries, isMine };
  });

  const markAtNewest = (el: HTMLElement, newest: number) => {
    el.scrollTop = el.scrollHeight;
    atNewestRef.current = true;
    setAtNewest(true);
    setSeenUpTo((upTo) => Math.max(upTo, newest));
  };

  // After each change of the entries, before the browser paints: follow new ones (or leave them
  // counted), and keep the reader's place when older ones were put in above.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const before = seen.current;
    if (!before) {
      setSeenUpTo((upTo) => Math.max(upTo, newestId));
      // The first showing goes to the newest entry in the next frame, before it paints. Read here, the
      // log's height would lay the page out inside React's commit: 49 ms of the chat's first render
      // (57 ms in all) on a slow machine, traced in Chromium, in one task with the render.
      const frame = requestAnimationFrame(() => {
        markAtNewest(el, newestId);
        seen.current = { newestId, oldestId, height: el.scrollHeight };
      });
      return () => cancelAnimationFrame(frame);
    }
    if (oldestId < before.oldestId && before.oldestId !== 0) el.scrollTop += el.scrollHeight - before.height;
    if (newestId > before.newestId) {
      const { entries: now, isMine: mine } = latest.current;
      if (atNewestRef.current || now.some((e) => e.id > before.newestId && mine(e))) markAtNewest(el, newestId);
    }
    seen.current = { newestId, oldestId, height: el.scrollHeight };
  }, [newestId, oldestId]);
  // Every commit, not only when the entries change: the height a change is measured against must be the latest.
  useLayoutEffect(() => {
    if (seen.current && ref.current) seen.current.height = ref.current.scrollHeight;
  });

  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (atNewestRef.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const onScroll = () => {
    const el = ref.current;
    if (!el) return undefined;
    if (seen.current) seen.current.height = el.scrollHeight;
    const at = isAtNewest(el);
    atNewestRef.current = at;
    setAtNewest(at);
    if (at) setSeenUpTo((upTo) => Math.max(upTo, newestId));
    return el;
  };

  const jumpToNewest = () => {
    const el = ref.current;
    if (!el) return;
    markAtNewest(el, newestId);
    el.focus({ preventScroll: true });
  };

  const unseen = entries.filter((e) => e.id > seenUpTo && !isMine(e) && counts(e)).length;
  return { ref, onScroll, atNewest, unseen, jumpToNewest };
}
