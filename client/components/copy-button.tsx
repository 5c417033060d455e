import { useEffect, useRef, useState } from 'react';

type CopyState = 'idle' | 'copied' | 'refused';

/** Selects the text of `element`, for copying by hand when the clipboard is refused. */
export function selectText(element: HTMLElement | null) {
  const selection = element ? window.getSelection() : null;
  if (!element || !selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/**
 * Copies `text` to the clipboard and says so beside the button ("Copied"). The clipboard can be
 * refused (no permission, an insecure page, an older browser): then it says to copy by hand, and
 * `onRefused` may select the text for that.
 */
export function CopyButton({ text, label = 'Copy', what, onRefused }: { text: string; label?: string; what: string; onRefused?: () => void }) {
  const [state, setState] = useState<CopyState>('idle');
  const reset = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(reset.current), []);

  const copy = async () => {
    clearTimeout(reset.current);
    try {
      // navigator.clipboard is missing outside a secure context: the same refusal as a denied permission.
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(text);
      setState('copied');
      // The confirmation goes after a while, so a second copy says "Copied" anew.
      reset.current = setTimeout(() => setState('idle'), 4000);
    } catch {
      setState('refused');
      onRefused?.();
    }
  };

  return (
    <span className="copy">
      <button type="button" className="btn btn-small" onClick={() => void copy()} aria-label={`${label} ${what}`}>
        {state === 'copied' ? 'Copied' : label}
      </button>
      <span role="status" className={state === 'refused' ? 'copy-note copy-note-refused' : 'copy-note'}>
        {state === 'copied' ? `Copied the ${what}.` : state === 'refused' ? `The browser did not allow copying: select the ${what} and copy it by hand.` : ''}
      </span>
    </span>
  );
}
