import { PageHeader } from '@/components/page-header';
import { homeReads } from '@pages/home.reads';
import { Spinner } from '@/components/spinner';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';

/** The version and how the service runs, from its status (an outage says so in the page). */
const reads = routeReads(homeReads.about);
export const { loader } = reads;
export const handle = { title: 'About', ...reads.handle };

function Version() {
  const { data, error } = reads.useReads().status;
  if (data) {
    return (
      <dl className="facts">
        <div>
          <dt>Version</dt>
          <dd>{data.version}</dd>
        </div>
        <div>
          <dt>Database</dt>
          <dd>{data.database.engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}</dd>
        </div>
        <div>
          <dt>Door access</dt>
          <dd>{data.kisi.mode === 'emulator' ? 'Kisi emulator (offline)' : 'Kisi cloud'}</dd>
        </div>
      </dl>
    );
  }
  if (error) return <p className="muted">The version is unavailable: {errorMessage(error)}</p>;
  return <Spinner />;
}

export function Component() {
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="About" title="Frontdesk">
        <p>
          The console a venue's front desk works from: a gym with door access control and a food court with stalls,
          in one web app.
        </p>
      </PageHeader>

      <section className="card prose" aria-labelledby="what-title">
        <h2 id="what-title">What it does</h2>
        <ul className="check-list">
          <li>Manages gym members and owners, and who may open which door, through the Kisi door-access cloud.</li>
          <li>Takes food-court orders at the table and puts them on the runners' live board.</li>
          <li>Gives staff their shell: account, service status, live events, chat and uploads.</li>
        </ul>
        <p>
          The browser only ever talks to Frontdesk's own server, which keeps the door-access key and the database to
          itself.
        </p>
      </section>

      <section className="card" aria-labelledby="version-title">
        <h2 id="version-title">This installation</h2>
        <Version />
      </section>

      <section className="card prose" aria-labelledby="links-title">
        <h2 id="links-title">Find your way</h2>
        <ul className="link-list">
          <li>
            <AppLink to={paths.home}>All areas</AppLink> — the home page lists what is available.
          </li>
          <li>
            <AppLink to={paths.selfTest}>Self-test</AppLink> — check that this browser can reach the service.
          </li>
          <li>
            <AppLink to={paths.shell}>Staff shell</AppLink> — sign in for the staff tools.
          </li>
          <li>
            <a href="https://docs.kisi.io/" rel="noreferrer" target="_blank">
              Kisi documentation
            </a>{' '}
            — the door-access service behind the gym area.
          </li>
        </ul>
      </section>
    </div>
  );
}
