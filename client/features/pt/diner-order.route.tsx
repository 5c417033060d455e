import { useState } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import { menuInPageReads } from '@pages/pt.reads';
import { EmptyState } from '@/components/empty-state';
import { AppLink } from '@/lib/app-link';
import { dinerMenuPath } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { OrderConfirmation, OtherOrders } from './components/order-progress';
import { isTable, rememberTableOfAddress, useRememberedTable, useTrackedOrders } from './diner-store';
import { DinerPageHeader } from './components/diner-page-header';

/**
 * `/pt/diner/order`: the orders placed from this device, the latest first, each followed live (its
 * token is kept on the device, decision 0025). The menu only brings the currency: without it the
 * orders still show, their totals unformatted rather than missing.
 */
const reads = routeReads(menuInPageReads);

/** `?table=` is this page's too, as on the menu and the cart. */
export async function loader(args: LoaderFunctionArgs) {
  const loaded = await reads.loader(args);
  rememberTableOfAddress(args.request.url, loaded.menu.data?.tables);
  return loaded;
}
export const handle = { title: 'Your order', ...reads.handle };

export function Component() {
  const { menu } = reads.useReads();
  const currency = menu.data?.currency ?? '';
  const tracked = useTrackedOrders();
  const remembered = useRememberedTable();
  const table = isTable(remembered, menu.data?.tables) ? remembered : null;
  const [shownId, setShownId] = useState<number>();
  const shown = tracked.find((t) => t.order.id === shownId) ?? tracked[0];
  const earlier = tracked.filter((t) => t !== shown);

  return (
    <div className="stack-lg">
      <DinerPageHeader table={table} title="Your order">
        <p>What you ordered from this device, and where it is now: it updates by itself until it reaches your table.</p>
      </DinerPageHeader>

      {shown ? (
        <OrderConfirmation key={shown.order.id} tracked={shown} currency={currency} />
      ) : (
        <section className="card">
          <EmptyState
            icon="cart"
            title="No order yet"
            action={
              <AppLink to={dinerMenuPath({ table })} className="btn btn-primary">
                Browse the menu
              </AppLink>
            }
          >
            Orders you place from this device show here, with how far along they are.
          </EmptyState>
        </section>
      )}
      <OtherOrders orders={earlier} onShow={setShownId} />
    </div>
  );
}
