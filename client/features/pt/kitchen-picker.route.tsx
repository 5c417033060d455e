import { useLoaderData } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { loadQuery, preloadQuery, useQuery } from '@/lib/cache';
import { paths } from '@/lib/paths';
import { KITCHEN_STALLS_KEY, fetchStallPage } from './pt.api';

/** `/pt/kitchen`: which stall this tablet is the kitchen screen of. */
export const loader = () => loadQuery(KITCHEN_STALLS_KEY, fetchStallPage);

export const handle = { title: 'Kitchens', preload: () => preloadQuery(KITCHEN_STALLS_KEY, fetchStallPage) };

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const stalls = useQuery(KITCHEN_STALLS_KEY, fetchStallPage, loaded).data ?? loaded;
  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Food court" title="Kitchens">
        <p>Open one stall’s screen on the tablet by its pass: its tickets only, live.</p>
      </PageHeader>
      {stalls.items.length === 0 ? (
        <EmptyState icon="food" title="No stalls yet" />
      ) : (
        <ul className="kitchen-picker" aria-label="Stalls">
          {stalls.items.map((stall) => (
            <li key={stall.id}>
              <AppLink className="btn kitchen-pick" to={paths.ptKitchen(stall.id)}>
                {stall.name}
                {stall.status === 'paused' ? <span className="badge">Paused</span> : null}
              </AppLink>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
