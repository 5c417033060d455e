import { useEffect, useId, useRef, useState } from 'react';
import type { DragEvent, ReactNode, Ref } from 'react';
import { Icon } from '@/components/icon';

const hasFiles = (event: { dataTransfer: DataTransfer | null }) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Where files are dropped or chosen: a labelled region with a real "Choose …" button opening the
 * browser's picker (the keyboard way in), highlighted while files are dragged over it. A drop
 * anywhere else on the page does nothing (the browser would otherwise open the file and leave the
 * page, uploads and all).
 */
export function DropZone({
  title,
  buttonLabel,
  multiple,
  accept,
  onFiles,
  buttonRef,
  children,
}: {
  title: string;
  buttonLabel: string;
  multiple: boolean;
  accept: string;
  onFiles: (files: File[]) => void;
  /** The "Choose …" button, for a page that moves the focus there. */
  buttonRef?: Ref<HTMLButtonElement>;
  /** The limits in a line, under the button. */
  children?: ReactNode;
}) {
  const titleId = useId();
  const hintId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  useEffect(() => {
    const ignore = (event: globalThis.DragEvent) => {
      if (hasFiles(event)) event.preventDefault();
    };
    window.addEventListener('dragover', ignore);
    window.addEventListener('drop', ignore);
    return () => {
      window.removeEventListener('dragover', ignore);
      window.removeEventListener('drop', ignore);
    };
  }, []);

  const onDragEnter = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current += 1;
    setOver(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setOver(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    depth.current = 0;
    setOver(false);
    const files = Array.from(event.dataTransfer.files);
    if (files.length) onFiles(files);
  };

  return (
    <section
      className={`upl-drop${over ? ' is-over' : ''}`}
      aria-labelledby={titleId}
      aria-describedby={children ? hintId : undefined}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
      onClick={(event) => {
        // A click anywhere in the zone opens the picker too (the button is the keyboard's way).
        if (event.target === event.currentTarget) input.current?.click();
      }}
    >
      <span className="upl-drop-icon" aria-hidden="true">
        <Icon name="arrow" size={28} />
      </span>
      <h2 id={titleId} className="upl-drop-title">
        {title}
      </h2>
      <p className="muted">{over ? `Let go to add ${multiple ? 'them' : 'it'}.` : 'or'}</p>
      <button ref={buttonRef} type="button" className="btn btn-primary" onClick={() => input.current?.click()}>
        {buttonLabel}
      </button>
      <input
        ref={input}
        type="file"
        className="upl-file-input"
        multiple={multiple}
        accept={accept}
        tabIndex={-1}
        aria-label={buttonLabel}
        hidden
        onChange={(event) => {
          const files = Array.from(event.target.files ?? []);
          // Cleared, so choosing the same file again (after a cancel) still counts as a choice.
          event.target.value = '';
          if (files.length) onFiles(files);
        }}
      />
      {children ? (
        <p id={hintId} className="upl-drop-hint small muted">
          {children}
        </p>
      ) : null}
    </section>
  );
}
