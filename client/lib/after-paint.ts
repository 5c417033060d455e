import { useEffect, useState } from 'react';

/**
 * Runs `task` once the browser has painted the next frame, and answers how to cancel it. For work a
 * screen starts for later (a dialog's code, data shown below the fold): begun in an effect, it would
 * go out in the same frame as the first paint and delay it on a slow phone. A frame's animation
 * callbacks run before its paint; a task queued from one runs after it.
 */
export function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(task, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

let firstPaintDone = false;

/**
 * False until the app's first page has painted, then true (at once for every component mounted after
 * that). For reads a first screen can show a moment later (a count on a tab, the choices of a filter):
 * asked as the page first renders, they go out with its first paint and hold it back on a slow phone.
 */
export function useFirstPaintDone(): boolean {
  const [done, setDone] = useState(firstPaintDone);
  useEffect(() => {
    if (done) return;
    return afterPaint(() => {
      firstPaintDone = true;
      setDone(true);
    });
  }, [done]);
  return done;
}
