import { useCallback, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';

/** Where the split layout keeps the channel list's width between visits. */
export const LIST_WIDTH_KEY = 'frontdesk.chat.listWidth';
export const MIN_LIST_WIDTH = 180;
export const MAX_LIST_WIDTH = 520;
export const DEFAULT_LIST_WIDTH = 300;
/** Arrow keys move the separator this far (with Shift, four times as far). */
export const KEY_STEP = 16;

const clamp = (width: number) => Math.round(Math.min(MAX_LIST_WIDTH, Math.max(MIN_LIST_WIDTH, width)));

function storedWidth(): number {
  try {
    const stored = Number(localStorage.getItem(LIST_WIDTH_KEY));
    return stored ? clamp(stored) : DEFAULT_LIST_WIDTH;
  } catch {
    // Storage refused (private mode, a policy): the default width, and nothing remembered.
    return DEFAULT_LIST_WIDTH;
  }
}

/** The list's width, read from and (with `remember`) written to localStorage. */
export function useListWidth(): [number, (width: number, remember: boolean) => void] {
  const [width, setWidthState] = useState(storedWidth);
  const setWidth = useCallback((next: number, remember: boolean) => {
    const value = clamp(next);
    setWidthState(value);
    if (!remember) return;
    try {
      localStorage.setItem(LIST_WIDTH_KEY, String(value));
    } catch {
      // not remembered: the width still holds for this visit
    }
  }, []);
  return [width, setWidth];
}

/**
 * The draggable separator between the channel list and the thread (a WAI-ARIA window splitter):
 * drag it, or focus it and use the arrow keys, Home and End. The width is remembered when a drag
 * ends or a key moves it.
 */
export function SplitHandle({ width, onResize, controls }: { width: number; onResize: (width: number, remember: boolean) => void; controls: string }) {
  const drag = useRef<{ x: number; width: number; last: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.preventDefault(); // no text selection while dragging
    // Moves keep coming while the pointer is outside the handle (older engines and test DOMs lack capture).
    event.currentTarget.setPointerCapture?.(event.pointerId);
    event.currentTarget.focus();
    drag.current = { x: event.clientX, width, last: width };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    drag.current.last = drag.current.width + event.clientX - drag.current.x;
    onResize(drag.current.last, false);
  };
  const onPointerEnd = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    if (event.currentTarget.hasPointerCapture?.(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    onResize(drag.current.last, true);
    drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step = event.shiftKey ? KEY_STEP * 4 : KEY_STEP;
    const moves: Record<string, number> = { ArrowLeft: width - step, ArrowRight: width + step, Home: MIN_LIST_WIDTH, End: MAX_LIST_WIDTH };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    onResize(next, true);
  };

  return (
    <div
      className="chat-split-handle"
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the channel list"
      aria-controls={controls}
      aria-valuenow={width}
      aria-valuemin={MIN_LIST_WIDTH}
      aria-valuemax={MAX_LIST_WIDTH}
      aria-valuetext={`Channel list ${width} pixels wide`}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
      onKeyDown={onKeyDown}
    >
      <span className="chat-split-grip" aria-hidden="true" />
    </div>
  );
}
