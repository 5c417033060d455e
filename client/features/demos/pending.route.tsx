import { useLoaderData, useRevalidator } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

/** The loader takes this long on purpose, to show the pending overlay (docs/ARCHITECTURE.md "Client conventions"). */
export const PENDING_DELAY_MS = 5000;

export async function loader({ request }: { request: Request }) {
  const started = Date.now();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, PENDING_DELAY_MS);
    request.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(request.signal.reason);
    });
  });
  return { waitedMs: Date.now() - started, loadedAt: new Date().toISOString() };
}

export const handle = { title: 'Slow page' };

const time = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

export function Component() {
  const { waitedMs, loadedAt } = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Loading state" title="Slow page">
        <p>
          This page's data takes five seconds to arrive. After one second of waiting the app covers the page with
          "Loading... Please wait..." and keeps it up at least half a second, so it never flickers.
        </p>
      </PageHeader>
      <section className="card">
        <dl className="facts">
          <div>
            <dt>Waited</dt>
            <dd className="tabular">{(waitedMs / 1000).toFixed(1)} s</dd>
          </div>
          <div>
            <dt>Loaded at</dt>
            <dd className="tabular">{time.format(new Date(loadedAt))}</dd>
          </div>
        </dl>
        <div className="button-row">
          <button type="button" className="btn btn-primary" onClick={() => void revalidator.revalidate()} disabled={revalidator.state !== 'idle'}>
            {revalidator.state !== 'idle' ? 'Waiting…' : 'Wait again'}
          </button>
          <AppLink to={paths.home} className="btn btn-ghost">
            Back to the home page
          </AppLink>
        </div>
      </section>
    </div>
  );
}
