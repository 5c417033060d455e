import { useState } from 'react';
import type { FormEvent } from 'react';
import type { LoaderFunctionArgs } from 'react-router';
import * as v from 'valibot';
import { PlaceOrderSchema, type MenuItem, type MenuStall, type PlaceOrder } from '@contracts/pt.contract';
import { menuInPageReads } from '@pages/pt.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { AppLink } from '@/lib/app-link';
import { NetworkError, errorMessage, isApiError } from '@/lib/api-client';
import { dinerMenuPath } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { OrderConfirmation, OtherOrders } from './components/order-progress';
import { QuantityStepper } from './components/quantity-stepper';
import { TablePicker } from './components/table-picker';
import {
  clearCart,
  idempotencyKeyFor,
  isTable,
  lineKey,
  rememberTable,
  rememberTableOfAddress,
  removeLine,
  setQuantity,
  settleSubmission,
  takeOrderedFromCart,
  trackOrder,
  unsettledOtherThan,
  useCart,
  useRememberedTable,
  useTrackedOrders,
  type CartLine,
} from './diner-store';
import { FollowMenu, stallClosedWords } from './live-menu';
import { placeOrder } from './pt.api';
import { formatMoney } from './pt-format';
import { DinerPageHeader } from './components/diner-page-header';

/** Why a cart of marked dishes cannot be ordered, and what to do. */
const NOTHING_ORDERABLE = 'None of these dishes can be ordered right now. Remove them, or pick others from the menu.';

/**
 * `/pt/diner/cart`. The menu brings the currency, the number of tables and today's prices; when it
 * cannot be read the cart still works (the server prices the order anyway).
 */
const reads = routeReads(menuInPageReads);

/** `?table=` is the cart's too, as on the menu: a link to the cart that names the table is that table's. */
export async function loader(args: LoaderFunctionArgs) {
  const loaded = await reads.loader(args);
  rememberTableOfAddress(args.request.url, loaded.menu.data?.tables);
  return loaded;
}
export const handle = { title: 'Your cart', ...reads.handle };

/** Messages of a refused order, by the cart line they name (`body.cart.N…`), and the rest. */
function refusedLines(error: unknown, sent: CartLine[]): { lines: Record<string, string>; other: string[] } {
  const lines: Record<string, string> = {};
  const other: string[] = [];
  if (!isApiError(error) || !error.problem) return { lines, other: [errorMessage(error)] };
  for (const item of error.problem.errors ?? []) {
    const match = /^body\.cart\.(\d+)/.exec(item.path);
    const line = match ? sent[Number(match[1])] : undefined;
    if (line) lines[lineKey(line)] = lines[lineKey(line)] ? `${lines[lineKey(line)]} ${item.message}` : item.message;
    else other.push(item.message);
  }
  return { lines, other };
}

export function Component() {
  const { data: menu, error: menuError, isValidating, mutate } = reads.useReads().menu;
  const currency = menu?.currency ?? '';
  const cart = useCart();
  const tracked = useTrackedOrders();
  const remembered = useRememberedTable();
  const table = isTable(remembered, menu?.tables) ? remembered : null;
  const [changingTable, setChangingTable] = useState(false);
  const [placing, setPlacing] = useState(false);
  const [failures, setFailures] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [placedId, setPlacedId] = useState<number>();
  const [shownId, setShownId] = useState<number>();

  const items = new Map<number, { item: MenuItem; stall: MenuStall }>((menu?.stalls ?? []).flatMap((stall) => stall.items.map((item) => [item.id, { item, stall }] as const)));
  const priceOf = (line: CartLine) => items.get(line.itemId)?.item.priceCents ?? line.unitPriceCents;
  /**
   * Why a line cannot be ordered now: the server's refusal, or the menu as last read, which the page
   * follows live (a dish sold out, its stall paused or closed, while the cart is open).
   */
  const warningOf = (line: CartLine) => {
    if (!menu) return undefined;
    const found = items.get(line.itemId);
    if (!found) return 'Not on the menu right now — remove it to order.';
    const closed = stallClosedWords(found.stall, menu);
    if (closed) return `${closed} — remove it to order now.`;
    return found.item.soldOut ? 'Sold out — remove it to order.' : undefined;
  };
  const unavailable = (line: CartLine) => Boolean(failures[lineKey(line)] ?? warningOf(line));
  // What will be ordered: the lines that can be; the others stay in the cart, marked, out of the total.
  const orderable = cart.filter((line) => !unavailable(line));
  const leftOut = cart.length - orderable.length;
  /** Every dish in the cart is marked: there is nothing to order until one is removed or others are added. */
  const nothingOrderable = cart.length > 0 && orderable.length === 0;
  const total = orderable.reduce((sum, line) => sum + line.quantity * priceOf(line), 0);
  const count = orderable.reduce((sum, line) => sum + line.quantity, 0);
  const shown = tracked.find((t) => t.order.id === shownId) ?? tracked[0];
  const earlier = tracked.filter((t) => t !== shown);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (placing) return;
    // The menu's state, which no schema knows: every dish left is sold out or off the menu.
    if (nothingOrderable) return setFormError(NOTHING_ORDERABLE);
    const sent = orderable;
    const checked = v.safeParse(placeOrder.endpoint.body, { table: table ?? undefined, cart: sent.map((line) => ({ itemId: line.itemId, quantity: line.quantity, note: line.note })) });
    // The order's own contract (a table chosen, a cart that is not empty), in its words.
    if (!checked.success) return setFormError(checked.issues.map((issue) => issue.message).join(' '));
    const order: PlaceOrder = checked.output;
    setPlacing(true);
    setFormError(undefined);
    // An earlier submission whose answer was lost, and the cart changed since (a quantity, a dish that
    // sold out meanwhile): that one is sent again first, exactly as it was, so it is never placed twice.
    const earlier = unsettledOtherThan(JSON.stringify(order));
    if (earlier) {
      const outcome = await settleEarlier(earlier);
      if (outcome !== 'refused') return setPlacing(false);
    }
    // The same order sent again (after a lost answer, even after a reload) carries the same key, so it is placed once.
    const key = idempotencyKeyFor(JSON.stringify(order));
    try {
      const placed = await placeOrder({ body: order, headers: { 'Idempotency-Key': key } });
      settleSubmission();
      trackOrder(placed);
      // The lines left out (sold out, stall paused) stay for later; the rest was ordered.
      if (leftOut) sent.forEach((line) => removeLine(lineKey(line)));
      else clearCart();
      setFailures({});
      setShownId(placed.id);
      setPlacedId(placed.id);
    } catch (error) {
      if (isApiError(error, 429)) {
        setFormError('Lots of orders are coming in right now. Try again in a moment; your cart is kept.');
      } else if (error instanceof NetworkError || (isApiError(error) && error.status >= 500)) {
        // The order may have gone through: keep the key, so pressing again cannot order twice.
        setFormError(`The order could not be confirmed (${errorMessage(error)}). Press Place order again: it will not be ordered twice.`);
      } else {
        // A refusal (409 sold out or paused, 400/422 invalid): nothing was ordered; the next try is a new submission.
        // The write has read the menu again after a 409 or 422, so the cart's warnings match what was refused.
        settleSubmission();
        const { lines, other } = refusedLines(error, sent);
        setFailures(lines);
        const marked = Object.keys(lines).length;
        setFormError(
          [marked ? `${marked === 1 ? 'One dish' : `${marked} dishes`} could not be ordered, marked below; nothing was ordered yet. Place the order again without ${marked === 1 ? 'it' : 'them'}, or remove ${marked === 1 ? 'it' : 'them'}.` : '', ...other]
            .filter(Boolean)
            .join(' ') || errorMessage(error),
        );
      }
    } finally {
      setPlacing(false);
    }
  };

  /** Sends the earlier submission again and says what became of it; 'refused' when nothing was ordered by it. */
  const settleEarlier = async (earlier: { key: string; payload: string }): Promise<'placed' | 'unknown' | 'refused'> => {
    const parsed = v.safeParse(PlaceOrderSchema, JSON.parse(earlier.payload));
    if (!parsed.success) {
      settleSubmission();
      return 'refused';
    }
    try {
      const placed = await placeOrder({ body: parsed.output, headers: { 'Idempotency-Key': earlier.key } });
      settleSubmission();
      trackOrder(placed);
      takeOrderedFromCart(parsed.output.cart);
      setFailures({});
      setShownId(placed.id);
      setPlacedId(placed.id);
      // Said as it happened: the server tells a found earlier submission from one placed by this very press.
      setFormError(
        placed.replayed
          ? `Your earlier order went through after all (order ${placed.id}). What you changed since is still in the cart: check it and place it when you are ready.`
          : `Your earlier order had not gone through; it is placed now (order ${placed.id}). What you changed since is still in the cart: check it and place it when you are ready.`,
      );
      return 'placed';
    } catch (error) {
      if (isApiError(error, 429) || error instanceof NetworkError || (isApiError(error) && error.status >= 500)) {
        setFormError(`Your earlier order could not be confirmed yet (${errorMessage(error)}). Press Place order again: it will not be ordered twice.`);
        return 'unknown';
      }
      settleSubmission(); // refused: nothing was ordered by it
      return 'refused';
    }
  };

  const changeQuantity = (line: CartLine, quantity: number) => {
    setQuantity(lineKey(line), quantity);
    setFailures(({ [lineKey(line)]: _changed, ...rest }) => rest);
  };

  return (
    <div className="stack-lg">
      <DinerPageHeader table={table} title="Your cart">
        <p>One cart for every stall. Place the order and follow it here until it reaches your table.</p>
      </DinerPageHeader>

      {menuError && !menu ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not load today’s menu ({errorMessage(menuError)}). Prices shown are those you saw when adding.
        </LoadError>
      ) : menuError && !isValidating ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the menu: {errorMessage(menuError)}
        </LoadError>
      ) : null}

      {/* While dishes wait in the cart, what happens to them on the menu shows here at once. */}
      {cart.length > 0 && menu ? <FollowMenu menu={menu} /> : null}
      {shown ? <OrderConfirmation key={shown.order.id} tracked={shown} currency={currency} placedNow={placedId === shown.order.id} /> : null}
      <OtherOrders orders={earlier} onShow={setShownId} />

      {cart.length === 0 ? (
        <section className="card">
          <EmptyState
            icon="cart"
            title={tracked.length ? 'Want anything else?' : 'Your cart is empty'}
            action={
              <AppLink to={dinerMenuPath({ table })} className="btn btn-primary">
                Browse the menu
              </AppLink>
            }
          >
            Add dishes from any stall; they all go in this one cart.
          </EmptyState>
        </section>
      ) : (
        // The table picker is a form of its own: it stands beside the order's form, not in it.
        <section className="card stack cart" aria-labelledby="cart-title">
          <h2 id="cart-title" className="card-heading">
            <Icon name="cart" /> Cart
          </h2>

          {table && !changingTable ? (
            <p className="table-line">
              For <strong>table {table}</strong>.{' '}
              <button type="button" className="link-button" onClick={() => setChangingTable(true)}>
                Change table
              </button>
            </p>
          ) : menu ? (
            <TablePicker
              tables={menu.tables}
              current={table}
              onPick={(n) => {
                rememberTable(n);
                setChangingTable(false);
                setFormError(undefined);
              }}
            >
              <p>Which table are you at? Its number is on the table’s sign.</p>
            </TablePicker>
          ) : null}

          <form className="stack" aria-label="Your cart" onSubmit={(e) => void onSubmit(e)} noValidate>
            <ul className="cart-lines" aria-label="Dishes in your cart">
              {cart.map((line) => {
                const key = lineKey(line);
                const failure = failures[key];
                const warning = failure ? undefined : warningOf(line);
                return (
                  <li key={key} className={`cart-line${failure ? ' has-error' : ''}${failure || warning ? ' is-left-out' : ''}`}>
                    <div className="cart-line-main">
                      <span className="cart-line-name">{line.name}</span>
                      <span className="muted small">{line.stallName}</span>
                      {line.note ? <span className="order-line-note">“{line.note}”</span> : null}
                      {failure ? (
                        <span className="field-error cart-line-error">
                          <Icon name="alert" size={16} /> {failure}
                        </span>
                      ) : warning ? (
                        <span className="cart-line-warning">{warning}</span>
                      ) : null}
                    </div>
                    <QuantityStepper dish={line.name} quantity={line.quantity} onChange={(quantity) => changeQuantity(line, quantity)} disabled={placing} noMore={warning !== undefined}>
                      <span className="stepper-value tabular" aria-live="polite">
                        {line.quantity}
                      </span>
                    </QuantityStepper>
                    <span className="cart-line-price tabular">{formatMoney(line.quantity * priceOf(line), currency)}</span>
                    <button type="button" className="btn btn-small danger-hover" onClick={() => removeLine(key)} disabled={placing}>
                      <Icon name="trash" size={16} /> <span className="cart-remove-word">Remove</span>
                      <span className="visually-hidden"> {line.name}</span>
                    </button>
                  </li>
                );
              })}
            </ul>

            <p className="order-total">
              <span>
                Total for {count} {count === 1 ? 'item' : 'items'}
                {leftOut ? <span className="muted small"> (without {leftOut === 1 ? 'the marked dish' : `the ${leftOut} marked dishes`})</span> : null}
              </span>{' '}
              <strong className="tabular">{formatMoney(total, currency)}</strong>
            </p>

            {formError ? (
              <div className="banner banner-danger" role="alert">
                {formError}
              </div>
            ) : nothingOrderable ? (
              <p className="banner banner-warning" id="cart-nothing-orderable">
                {NOTHING_ORDERABLE}
              </p>
            ) : null}

            <div className="cart-actions">
              <button
                type="submit"
                className="btn btn-primary btn-big"
                // While placing, the button keeps the focus (aria-disabled): after a failure Enter tries again.
                disabled={nothingOrderable}
                aria-disabled={placing || undefined}
                aria-busy={placing}
                aria-describedby={nothingOrderable && !formError ? 'cart-nothing-orderable' : undefined}
              >
                {placing ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
                {placing
                  ? 'Placing order…'
                  : nothingOrderable
                    ? 'Place order'
                    : `${leftOut ? `Place order without ${leftOut === 1 ? 'the marked dish' : `${leftOut} marked dishes`}` : 'Place order'} · ${formatMoney(total, currency)}`}
              </button>
            </div>
            <p className="muted small">Prices are confirmed by the stalls when the order is placed.</p>
          </form>
        </section>
      )}
    </div>
  );
}
