import { DEFAULT_PAGE_SIZE, PAGE_SIZES, dayAfter, daysInRange, type IgnoredParam } from '@pages/search-params';

/**
 * From and to days of a filtered list (the last day included), for the house toolbar. `maxDays`:
 * the longest range the list allows; choosing an end further off brings the other end along.
 */
export function DayRangeFields({ from, to, maxDays, onChange }: { from: string; to: string; maxDays?: number; onChange: (range: DayRange) => void }) {
  const choose = (end: keyof DayRange, day: string) => onChange(rangeWith({ from, to }, end, day, maxDays));
  return (
    <>
      <label className="field-inline">
        <span>From</span>
        <input type="date" value={from} max={to || undefined} onChange={(e) => choose('from', e.target.value)} />
      </label>
      <label className="field-inline">
        <span>To</span>
        <input type="date" value={to} min={from || undefined} onChange={(e) => choose('to', e.target.value)} />
      </label>
    </>
  );
}

export type DayRange = { from: string; to: string };

/**
 * The range with one end chosen anew. An end typed past the other (a date field's min and max do
 * not stop typing) moves the other along, so what the person chose stays a range; so does an end
 * more than `maxDays` off, so the range stays one the list can show.
 */
function rangeWith(range: DayRange, end: keyof DayRange, day: string, maxDays = Infinity): DayRange {
  const next = { ...range, [end]: day };
  if (!next.from || !next.to) return next;
  if (next.to < next.from) return { from: day, to: day };
  if (daysInRange(next) <= maxDays) return next;
  return end === 'to' ? { from: dayAfter(day, 1 - maxDays), to: day } : { from: day, to: dayAfter(day, maxDays - 1) };
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
