/** One bar: what it is ("09:00", a stall's name), its size, and the value as the reader should see it. */
export type Bar = { key: string | number; label: string; value: number; text: string };

/**
 * A bar chart drawn with CSS (each bar a box sized as a share of the largest), beside a table that
 * holds the same numbers. The table is what assistive technology reads, so the chart is hidden from
 * it (`aria-hidden`): two readings of one set of numbers would only say them twice.
 * `columns`: bars side by side (hours); `rows`: one bar per line with its label (stalls, whose
 * names are too long to stand under a column).
 */
export function BarChart({ bars, layout, className = '' }: { bars: readonly Bar[]; layout: 'columns' | 'rows'; className?: string }) {
  const max = Math.max(0, ...bars.map((bar) => bar.value));
  const share = (value: number) => (max > 0 ? Math.max(0, value) / max : 0);
  return (
    <div className={`bar-chart bar-chart-${layout} ${className}`.trim()} aria-hidden="true" data-testid="bar-chart">
      {bars.map((bar) => (
        <div key={bar.key} className="bar-chart-item" title={`${bar.label}: ${bar.text}`}>
          {layout === 'rows' ? <span className="bar-chart-label">{bar.label}</span> : null}
          <span className="bar-chart-track">
            <span className="bar-chart-bar" style={{ '--share': share(bar.value) } as React.CSSProperties} />
          </span>
          <span className="bar-chart-value tabular">{bar.text}</span>
          {layout === 'columns' ? <span className="bar-chart-label">{bar.label}</span> : null}
        </div>
      ))}
    </div>
  );
}
