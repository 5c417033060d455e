import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type IgnoredParam } from '@/lib/list-filters';

/** From and to days of a filtered list (the last day included), for the house toolbar. */
export function DayRangeFields({ from, to, onChange }: { from: string; to: string; onChange: (range: DayRange) => void }) {
  return (
    <>
      <label className="field-inline">
        <span>From</span>
        <input type="date" value={from} max={to || undefined} onChange={(e) => onChange(rangeWith({ from, to }, 'from', e.target.value))} />
      </label>
      <label className="field-inline">
        <span>To</span>
        <input type="date" value={to} min={from || undefined} onChange={(e) => onChange(rangeWith({ from, to }, 'to', e.target.value))} />
      </label>
    </>
  );
}

export type DayRange = { from: string; to: string };

/**
 * The range with one end chosen anew; an end typed past the other (a date field's min and max do
 * not stop typing) moves the other along, so what the person chose stays a range.
 */
function rangeWith(range: DayRange, end: keyof DayRange, day: string): DayRange {
  const next = { ...range, [end]: day };
  return next.from && next.to && next.to < next.from ? { from: day, to: day } : next;
}

/** How many rows a page shows; the default is left out of the URL. */
export function PageSizeField({ value, onChange }: { value: number; onChange: (value: string) => void }) {
  return (
    <label className="field-inline">
      <span>Per page</span>
      <select value={String(value)} onChange={(e) => onChange(e.target.value === String(DEFAULT_PAGE_SIZE) ? '' : e.target.value)}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Says which params of the link the page left out, and why. */
export function IgnoredParamsBanner({ ignored }: { ignored: readonly IgnoredParam[] }) {
  if (ignored.length === 0) return null;
  return (
    <div className="banner banner-warning" role="status">
      <p>This link had filters the page could not use, so they are left out:</p>
      <ul className="ignored-params">
        {ignored.map((param) => (
          <li key={param.name}>
            <code>
              {param.name}={param.value}
            </code>
            : {param.reason}.
          </li>
        ))}
      </ul>
    </div>
  );
}
