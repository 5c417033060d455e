/** The submit row of a modal form: cancel and a primary button that shows its pending state. */
export function FormActions({ pending, submitLabel, pendingLabel, onCancel, danger = false }: { pending: boolean; submitLabel: string; pendingLabel: string; onCancel: () => void; danger?: boolean }) {
  // A destructive dialog opens with focus on Cancel, the safe choice.
  return (
    <div className="form-actions">
      <button type="button" className="btn" onClick={onCancel} data-autofocus={danger ? true : undefined}>
        Cancel
      </button>
      <button type="submit" className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`} disabled={pending} aria-busy={pending}>
        {pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
        {pending ? pendingLabel : submitLabel}
      </button>
    </div>
  );
}
