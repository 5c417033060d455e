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
