import { kitchenPickerReads } from '@pages/pt.reads';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';

/** `/pt/kitchen`: which stall this tablet is the kitchen screen of. */
const reads = routeReads(kitchenPickerReads);
export const { loader } = reads;
export const handle = { title: 'Kitchens', ...reads.handle };

export function Component() {
  const { stalls } = reads.useReads();
  return (
    <div className="stack-lg">
      <PageHeader eyebrow="Food court" title="Kitchens">
        <p>Open one stall’s screen on the tablet at its counter, where dishes are handed over: its tickets only, live.</p>
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
