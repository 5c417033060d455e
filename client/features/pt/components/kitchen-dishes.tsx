import * as v from 'valibot';
import { MenuChangeSchema, type MenuItem } from '@contracts/pt.contract';
import { stallRead } from '@pages/pt.reads';
import { AsyncButton } from '@/components/async-button';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { useLiveEvents } from '@/lib/live-events';
import { useRead } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { setDishSoldOut } from '../pt.api';

/**
 * The kitchen screen's dishes: each of its stall's dishes with a switch between sold out and back in
 * stock, which diners' menus and carts hear live. Folded away by default (the tickets are the
 * screen's work); its summary says how many are sold out. Another screen's change (the stall's page,
 * another tablet) arrives as a `menu` event and the list reads itself again.
 */
export function KitchenDishes({ stallId }: { stallId: number }) {
  const { data: stall, error, isValidating, mutate } = useRead(queryOf(stallRead(stallId)));
  const toast = useToast();
  useLiveEvents(['menu'], (event) => {
    const change = v.safeParse(MenuChangeSchema, event.data);
    if (!change.success) return;
    const about = change.output.kind === 'item' ? change.output.item.stallId : change.output.kind === 'item-removed' ? change.output.stallId : change.output.kind === 'stall' ? change.output.stall.id : change.output.id;
    if (about === stallId) void mutate();
  });

  const toggle = async (item: MenuItem) => {
    try {
      await setDishSoldOut({ params: { id: stallId, itemId: item.id }, body: { soldOut: !item.soldOut } });
    } catch (err) {
      toast.show({ tone: 'error', title: `Could not change ${item.name}`, message: errorMessage(err) });
    }
  };

  const items = stall?.items ?? [];
  const soldOut = items.filter((item) => item.soldOut).length;
  return (
    <details className="card kitchen-dishes">
      <summary className="kitchen-dishes-summary">
        <strong>Dishes</strong>
        <span className="muted">
          {stall ? ` · ${items.length} on the menu${soldOut ? ` · ${soldOut} sold out` : ''}` : error ? ' · could not be read' : ' · loading…'}
        </span>
      </summary>
      {error && !stall ? (
        <p className="field-error">
          Could not read the dishes: {errorMessage(error)}{' '}
          <button type="button" className="link-button" onClick={() => void mutate()} disabled={isValidating}>
            Try again
          </button>
        </p>
      ) : stall && items.length === 0 ? (
        <p className="muted">This stall has no dishes on its menu yet.</p>
      ) : (
        <ul className="kitchen-dish-list" aria-label="Dishes">
          {items.map((item) => (
            <li key={item.id} className={`kitchen-dish${item.soldOut ? ' is-sold-out' : ''}`}>
              <span className="kitchen-dish-name">{item.name}</span>
              {item.soldOut ? <span className="badge badge-bad">Sold out</span> : <span className="badge badge-ok">In stock</span>}
              <AsyncButton run={() => toggle(item)} pendingLabel="Saving…" className={`btn btn-small${item.soldOut ? '' : ' danger-hover'}`}>
                {item.soldOut ? 'Back in stock' : 'Sold out'}
                <span className="visually-hidden"> {item.name}</span>
              </AsyncButton>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
