import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** The width below which a row of tabs scrolls sideways instead of wrapping (styles.css). */
const SCROLLING_TABS = '(max-width: 600px)';

/**
 * Marks which ends of a row of tabs have more beyond them (`data-more`: start, end or both), for
 * styles.css to draw the sign there: a row cut at the screen's edge read as if it ended there, its
 * last tab cut mid-word ("Kitchen scre"), and nobody thought to swipe it.
 */
function markRow(row: HTMLElement) {
  const hidden = row.scrollWidth - row.clientWidth;
  // A pixel of slack: a zoomed page scrolls by fractions and never quite reaches either end.
  const start = hidden > 1 && row.scrollLeft > 1;
  const end = hidden > 1 && row.scrollLeft < hidden - 1;
  const more = start && end ? 'both' : start ? 'start' : end ? 'end' : undefined;
  if (row.dataset.more === more) return;
  if (more) row.dataset.more = more;
  else delete row.dataset.more;
}

const rows = () => document.querySelectorAll<HTMLElement>('.tabs');

/**
 * Rows of tabs too wide for a phone scroll sideways. After each navigation the current tab is brought
 * into its row's view, so the page's own tab is never the one cut off at the edge; and each end of a
 * row with more beyond it says so, as the row is scrolled, resized, or its tabs change (a count
 * arriving). Measured in the next frame, with the layout the browser makes for it anyway: read in the
 * effect, the first layout of a page (the longest there is on a phone) would run inside React's task.
 */
export function useScrollingTabs() {
  const { pathname } = useLocation();
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      if (window.matchMedia?.(SCROLLING_TABS).matches) {
        for (const row of rows()) {
          const current = row.querySelector<HTMLElement>('[aria-current="page"]');
          if (current && row.scrollWidth > row.clientWidth) row.scrollLeft += current.getBoundingClientRect().left - row.getBoundingClientRect().left - (row.clientWidth - current.offsetWidth) / 2;
        }
      }
      for (const row of rows()) markRow(row);
    });
    // A row's width, or one of its tabs' (a count shown), changed: its ends are measured again.
    const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver((entries) => {
      for (const entry of entries) {
        const row = entry.target.closest<HTMLElement>('.tabs');
        if (row) markRow(row);
      }
    });
    for (const row of rows()) {
      resized?.observe(row);
      for (const tab of row.children) resized?.observe(tab);
    }
    // Scroll events do not bubble: one listener catches every row's in its capture phase.
    const scrolled = (event: Event) => {
      if (event.target instanceof HTMLElement && event.target.classList.contains('tabs')) markRow(event.target);
    };
    document.addEventListener('scroll', scrolled, { capture: true, passive: true });
    return () => {
      cancelAnimationFrame(frame);
      resized?.disconnect();
      document.removeEventListener('scroll', scrolled, { capture: true });
    };
  }, [pathname]);
}
