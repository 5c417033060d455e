import './erase-choice.css';
import { useId, useState } from 'react';

/**
 * The choice in a person's delete dialog (a member, an account) to erase them from the venue's
 * history too (decision 0097). Unticked, the delete keeps the history as it was; `onChange` tells the
 * dialog's delete what was chosen.
 */
export function EraseChoice({ onChange, keeps }: { onChange: (erase: boolean) => void; keeps: string }) {
  const [erase, setErase] = useState(false);
  const id = useId();
  return (
    <div className="erase-choice">
      <input
        id={`${id}-erase`}
        type="checkbox"
        checked={erase}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setErase(event.target.checked);
          onChange(event.target.checked);
        }}
      />
      <label htmlFor={`${id}-erase`}>Also erase their name and email from door events and conversations</label>
      <p id={`${id}-hint`} className="erase-hint muted small">
        {keeps} This cannot be undone.
      </p>
    </div>
  );
}
