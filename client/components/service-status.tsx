import type { ServiceStatus } from '@contracts/status.contract';
import { Icon } from './icon';

export function formatUptime(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${s % 60} s`;
  return `${s} s`;
}

// Made when first shown: the home page's compact card shows no date, and the first formatter a page
// makes costs a phone about 30 ms (locale data). Not lib/on-first-use: this card stays out of the kit (docs/performance.md).
let dateTime: Intl.DateTimeFormat | undefined;

/** The service status as a definition list (home page and /shell/api). */
export function ServiceStatusView({ status, compact = false }: { status: ServiceStatus; compact?: boolean }) {
  const rows: [string, string][] = [
    ['Service', `${status.name} ${status.version}`],
    ['Up for', formatUptime(status.uptimeSeconds)],
    ['Database', status.database.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'],
    ['Door access', status.kisi.mode === 'emulator' ? 'Kisi emulator' : 'Kisi cloud'],
  ];
  if (!compact) {
    rows.push(['Started', (dateTime ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })).format(new Date(status.startedAt))], ['Node.js', status.node]);
  }
  return (
    <div className="status-view">
      <p className="status-line">
        <span className={`badge ${status.status === 'ok' ? 'badge-ok' : 'badge-bad'}`}>
          <Icon name={status.status === 'ok' ? 'check' : 'cross'} size={14} />
          {status.status === 'ok' ? 'Operational' : 'Degraded'}
        </span>
      </p>
      <dl className="facts">
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
