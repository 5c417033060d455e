import { useEffect, useState } from 'react';

/**
 * Runs `task` once the browser has painted the next frame, and answers how to cancel it. For work a
 * screen starts for later (a dialog's code, data shown below the fold): begun in an effect, it would
 * go out in the same frame as the first paint and delay it on a slow phone. A frame's animation
 * callbacks run before its paint; a task queued from one runs after it.
 *
 * Until the page's first contentful paint has reached the screen, it waits for that too: the main
 * thread is done with a frame before the screen shows it, and the first frames of an app's start show
 * nothing yet (Lighthouse counted a dialog's code, asked for that way, as part of the first paint).
 */
export function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame: number | undefined;
  const nextFrame = () => {
    frame = requestAnimationFrame(() => {
      timer = setTimeout(task, 0);
    });
  };
  let observer: PerformanceObserver | undefined;
  if (firstContentfulPaintShown()) nextFrame();
  else {
    observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer?.disconnect();
      nextFrame();
    });
    observer.observe({ type: 'paint' });
  }
  return () => {
    observer?.disconnect();
    if (frame !== undefined) cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

/** Whether the first contentful paint is on screen, or cannot be known (no paint timing: then only the next frame is waited for). */
export function firstContentfulPaintShown(): boolean {
  if (typeof PerformanceObserver === 'undefined' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) return true;
  return performance.getEntriesByName('first-contentful-paint').length > 0;
}

let firstPaintDone = false;

/**
 * False until the app's first page has painted, then true (at once for every component mounted after
 * that). For reads a first screen can show a moment later (a count on a tab, the choices of a filter):
 * asked as the page first renders, they go out with its first paint and hold it back on a slow phone.
 * Only a component that `waits` renders again when the paint is done. (Every `useQuery` once did, so
 * each screen rendered a second time right after its first paint, on the main thread a phone's first
 * seconds are short of.)
 */
export function useFirstPaintDone(waits = true): boolean {
  const [done, setDone] = useState(firstPaintDone);
  useEffect(() => {
    if (done || !waits) return;
    return afterPaint(() => {
      firstPaintDone = true;
      setDone(true);
    });
  }, [done, waits]);
  return done || firstPaintDone;
}

/**
 * Notes the app's first paint for the components mounted after it (`useFirstPaintDone` is then true at
 * once), without rendering anything again. The root layout runs it: on a first page where nothing
 * waits for the paint, nothing else would note it.
 */
export function useNoteFirstPaint(): void {
  useEffect(() => (firstPaintDone ? undefined : afterPaint(() => void (firstPaintDone = true))), []);
}
