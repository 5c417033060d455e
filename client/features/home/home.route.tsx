import { homeReads } from '@pages/home.reads';
import { Icon } from '@/components/icon';
import { ServiceStatusView } from '@/components/service-status';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import type { LoaderFunctionArgs } from 'react-router';
import { routeReads } from '@/lib/route-reads';
import { askSession } from '@/lib/session';
import { areas, areasFor, diagnostics, samples, useAudience } from '@/lib/areas';
import type { Area } from '@/lib/areas';

/** The home page stays usable when the API is down: the status card says so. */
const reads = routeReads(homeReads.home);

/** Who is asking, beside the status: the cards are the role's, there at the first paint (nothing moves when the session answers). */
export async function loader(args: LoaderFunctionArgs) {
  const [loaded] = await Promise.all([reads.loader(args), askSession().catch(() => undefined)]);
  return loaded;
}
export const handle = { title: 'Home', ...reads.handle };

function AreaCard({ area }: { area: Area }) {
  return (
    <li>
      <AppLink to={area.href} className="card card-link">
        <span className="card-icon" aria-hidden="true">
          <Icon name={area.icon} />
        </span>
        <span className="card-title">
          {area.title}
          {area.for.length === 1 && area.for[0] === 'admin' ? <span className="badge badge-muted">Admin</span> : !area.for.includes('visitor') ? <span className="badge badge-muted">Staff</span> : null}
        </span>
        <span className="card-text">{area.summary}</span>
        <span className="card-go" aria-hidden="true">
          <Icon name="arrow" size={18} />
        </span>
      </AppLink>
    </li>
  );
}

export function Component() {
  const { data: status, error } = reads.useReads().status;
  const audience = useAudience();
  const shownAreas = areasFor(areas, audience);
  const shownSamples = areasFor(samples, audience);
  const problem = status || !error ? undefined : errorMessage(error);
  return (
    <div className="stack-xl">
      <section className="hero">
        <div className="hero-text">
          <p className="eyebrow">Venue console</p>
          <h1>Everything at the front desk, in one place.</h1>
          <p className="lede">
            Door access for the gym, food-court ordering and the staff tools of the venue. Pick an area to begin;
            staff pages ask you to sign in.
          </p>
        </div>
        <aside className="card status-card" aria-labelledby="status-title">
          <h2 id="status-title" className="card-heading">
            <Icon name="server" /> Service status
          </h2>
          {status ? (
            <ServiceStatusView status={status} compact />
          ) : (
            <p className="status-problem">
              <span className="badge badge-bad">
                <Icon name="cross" size={14} /> Unavailable
              </span>
              <span>{problem ?? 'Checking…'}</span>
            </p>
          )}
        </aside>
      </section>

      <section aria-labelledby="areas-title">
        <h2 id="areas-title" className="section-title">
          Areas
        </h2>
        <ul className="card-grid">
          {shownAreas.map((area) => (
            <AreaCard key={area.href} area={area} />
          ))}
        </ul>
      </section>

      <section aria-labelledby="samples-title">
        <h2 id="samples-title" className="section-title">
          Samples
        </h2>
        <p className="section-lede">Pages on public APIs and demos of what the app is built from.</p>
        <ul className="card-grid card-grid-compact">
          {shownSamples.map((area) => (
            <AreaCard key={area.href} area={area} />
          ))}
        </ul>
      </section>

      <section aria-labelledby="diag-title">
        <h2 id="diag-title" className="section-title">
          Loading and error states
        </h2>
        <p className="section-lede">See how the app behaves when a page is slow, fails, or the server answers with an error.</p>
        <ul className="card-grid card-grid-compact">
          {diagnostics.map((area) => (
            <AreaCard key={area.href} area={area} />
          ))}
        </ul>
      </section>
    </div>
  );
}
