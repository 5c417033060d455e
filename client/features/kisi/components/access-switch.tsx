/** A user's door access as a real checkbox drawn as a switch, named for the person it changes. */
export function AccessSwitch({ name, checked, pending, onChange }: { name: string; checked: boolean; pending: boolean; onChange: (next: boolean) => void }) {
  return (
    <label className="switch">
      <input
        type="checkbox"
        role="switch"
        checked={checked}
        disabled={pending}
        aria-busy={pending}
        aria-label={`Door access for ${name}`}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className={`switch-text ${checked ? 'switch-text-on' : 'switch-text-off'}`} aria-hidden="true">
        {checked ? 'On' : 'Off'}
      </span>
    </label>
  );
}
