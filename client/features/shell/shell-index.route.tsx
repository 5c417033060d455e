import { gymApi } from '@contracts/gym.contract';
import { Icon } from '@/components/icon';
import { NotifySettings } from '@/components/notify-settings';
import { errorMessage } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { areas, areasFor, samples, type Area } from '@/lib/areas';
import { query, useRead } from '@/lib/reads';
import { formatCount, startOfTodayIso } from '@/lib/format';
import { paths } from '@/lib/paths';
import { hasRole, useShellUser } from '@/lib/session';
import { useNow } from '@/lib/use-now';

export const handle = { title: 'Overview' };

/**
 * Today's visits (the people the doors let in, each once) for the desk. "Today" starts at this browser's local
 * midnight, sent as an instant: the desk's clock is the venue's. Past midnight the key changes and
 * the count starts again.
 */
function TodayVisits() {
  const since = startOfTodayIso(useNow(60_000));
  // Through the contract, not the gym area's module: features stay apart.
  const { data, error, isLoading } = useRead(query(gymApi.countVisits, { query: { since } }));
  return (
    <section className="card visits-card" aria-labelledby="visits-title">
      <h2 id="visits-title" className="card-heading">
        <Icon name="door" /> Today’s visits
      </h2>
      {/* A figure, not a heading: a div, so it is not read as a styled paragraph heading. */}
      <div className="visits-count" aria-busy={isLoading}>
        {data ? formatCount(data.count) : isLoading ? '…' : '—'}
      </div>
      <p className="muted">{error && !data ? `Could not count them: ${errorMessage(error)}` : 'Members and staff the doors let in since midnight, each counted once.'}</p>
      <AppLink to={paths.shellWebhook}>See the door events</AppLink>
    </section>
  );
}

/** The staff shell's own page and About are no work of the day. */
const NOT_WORK = new Set<string>([paths.shell, paths.about]);

function ToolCards({ list }: { list: readonly Area[] }) {
  return (
    <ul className="card-grid card-grid-compact">
      {list.map((area) => (
        <li key={area.href}>
          <AppLink to={area.href} className="card card-link">
            <span className="card-icon" aria-hidden="true">
              <Icon name={area.icon} />
            </span>
            <span className="card-title">{area.title}</span>
            <span className="card-text">{area.summary}</span>
          </AppLink>
        </li>
      ))}
    </ul>
  );
}

export function Component() {
  const user = useShellUser();
  // The role's work first, in its header's order (members first for the desk); the demos after it, out of the way.
  const work = areasFor(areas, user.role).filter((area) => !NOT_WORK.has(area.href));
  return (
    <div className="shell-grid">
      <div className="stack-lg">
        <section className="card account-card" aria-labelledby="account-title">
          <h1 id="account-title" className="card-heading">
            <Icon name="user" /> Your account
          </h1>
          <dl className="facts">
            <div>
              <dt>Name</dt>
              <dd>{user.name}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>{user.email}</dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>
                <span className="badge badge-accent">{user.role}</span>
              </dd>
            </div>
            <div>
              <dt>Account id</dt>
              <dd className="tabular">{user.id}</dd>
            </div>
          </dl>
          <p>
            <AppLink to={paths.account}>Manage your account</AppLink>: your name, password, passkeys and where you are signed in.
          </p>
        </section>
        {hasRole(user, ['staff']) ? <TodayVisits /> : null}
        <NotifySettings />
      </div>
      <div className="stack-lg">
        <section aria-labelledby="tools-title">
          <h2 id="tools-title" className="section-title">
            Your work
          </h2>
          <ToolCards list={work} />
        </section>
        <details className="shell-samples">
          <summary className="section-title">Samples and demos</summary>
          <ToolCards list={areasFor(samples, user.role)} />
        </details>
      </div>
    </div>
  );
}
