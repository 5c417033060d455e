import { Icon } from '@/components/icon';
import './shell-contain.css';

export const handle = { title: 'Container layout' };

const METRICS = [
  { label: 'Door openings today', value: '1,284', trend: '+8 %' },
  { label: 'Members in the gym', value: '46', trend: 'now' },
  { label: 'Open food orders', value: '12', trend: '3 late' },
];

/** The same widget, laid out by the width of its container rather than the window. */
function MetricsWidget() {
  return (
    <div className="metrics">
      {METRICS.map((m) => (
        <div key={m.label} className="metric">
          <span className="metric-label">{m.label}</span>
          <span className="metric-value">{m.value}</span>
          <span className="metric-trend">{m.trend}</span>
        </div>
      ))}
    </div>
  );
}

export function Component() {
  return (
    <div className="stack-lg">
      <section className="card" aria-labelledby="contain-title">
        <h1 id="contain-title" className="card-heading">
          <Icon name="panel" /> Container layout
        </h1>
        <p className="muted">
          One widget in three places. Each copy arranges itself by the width of the box it is in (CSS container
          queries), not by the size of the window. Drag the corner of the last box to see it change.
        </p>
      </section>
      <div className="contain-demo">
        <section className="contain-box contain-side" aria-label="Narrow box">
          <h2>Sidebar</h2>
          <MetricsWidget />
        </section>
        <section className="contain-box contain-main" aria-label="Wide box">
          <h2>Main column</h2>
          <MetricsWidget />
        </section>
      </div>
      <section className="contain-box contain-resizable" aria-label="Resizable box">
        <h2>Resizable</h2>
        <MetricsWidget />
      </section>
    </div>
  );
}
