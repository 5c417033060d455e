import { useState } from 'react';
import type { FormEvent, ReactNode } from 'react';
import { SelectField } from '@/components/form-fields';

/** Choosing the table by hand (no QR code, or a number the venue does not have): 1 to `tables`. */
export function TablePicker({ tables, current, onPick, children }: { tables: number; current: number | null; onPick: (table: number) => void; children?: ReactNode }) {
  const [value, setValue] = useState(current && current <= tables ? String(current) : '');
  const [error, setError] = useState<string>();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!value) return setError('Choose your table: its number is on the table’s sign.');
    setError(undefined);
    onPick(Number(value));
  };
  return (
    <form className="table-picker" onSubmit={onSubmit} noValidate>
      {children}
      <div className="table-picker-row">
        <SelectField label="Your table" value={value} onChange={(e) => setValue(e.target.value)} error={error}>
          <option value="">Choose…</option>
          {Array.from({ length: tables }, (_, i) => i + 1).map((n) => (
            <option key={n} value={n}>
              Table {n}
            </option>
          ))}
        </SelectField>
        <button type="submit" className="btn btn-primary">
          Use this table
        </button>
      </div>
    </form>
  );
}
