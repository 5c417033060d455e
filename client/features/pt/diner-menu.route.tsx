import { useEffect, useRef, useState } from 'react';
import { useLoaderData, useNavigate, useSearchParams, type LoaderFunctionArgs } from 'react-router';
import type { Menu, MenuItem, MenuStall } from '@contracts/pt.contract';
import { dinerMenuReads, parseDinerSearch } from '@pages/pt.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useModal } from '@/components/modal-host';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { dinerMenuPath, paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { routeReads } from '@/lib/route-reads';
import { AddToCartForm } from './components/add-to-cart-form';
import { TablePicker } from './components/table-picker';
import { isTable, rememberTable, rememberTableOfAddress, useCart, useRememberedTable } from './diner-store';
import { canOrder, stallClosedWords, useLiveMenu } from './live-menu';
import { byCategory } from './menu-groups';
import { menuQuery } from './pt.api';
import { formatMoney, formatWait } from './pt-format';
import { DinerPageHeader } from './components/diner-page-header';

const reads = routeReads(dinerMenuReads);

/**
 * `/pt/diner/menu?table=12&stall=3`: the stalls' menus for a diner, the table from the QR code. A stall
 * closed by its hours or paused is shown as such, its dishes not addable; the page follows the menu live.
 * The QR code's table is remembered before the page renders, so the cart (and a later visit
 * without the QR) knows it.
 */
export async function loader(args: LoaderFunctionArgs) {
  const loaded = await reads.loader(args);
  rememberTableOfAddress(args.request.url, loaded.menu.tables);
  return loaded;
}

export const handle = { title: 'Menu', ...reads.handle };

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above the menu still shown.
  const { data: menu, error, isValidating, mutate } = useRead(menuQuery, loaded.menu);
  useLiveMenu(menu);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const search = parseDinerSearch(params);
  const remembered = useRememberedTable();
  const [added, setAdded] = useState('');
  const badTable = search.tableGiven && !isTable(search.table, menu.tables);
  const table = search.tableGiven ? (badTable ? null : search.table) : isTable(remembered, menu.tables) ? remembered : null;

  const hrefWith = (changes: { table?: number | null; stall?: number }) =>
    dinerMenuPath({ table: changes.table === undefined ? table : changes.table, stall: changes.stall === undefined ? search.stall : changes.stall });

  const chosen = search.stall ? menu.stalls.find((s) => s.id === search.stall) : undefined;
  const shown = chosen ? [chosen] : menu.stalls;

  return (
    <div className="stack-lg">
      <DinerPageHeader table={table} title="Menu">
        <p>Order from any of the stalls in one go: add dishes to your cart, then place the order. We bring it to your table.</p>
      </DinerPageHeader>

      {badTable ? (
        <section className="card stack" aria-labelledby="table-problem">
          <div className="banner banner-warning" role="alert">
            <p id="table-problem">
              <strong>We do not have a table “{params.get('table')}”.</strong> Tables here are numbered 1 to {menu.tables}. Choose yours below; its number is on the table’s sign.
            </p>
          </div>
          <TablePicker tables={menu.tables} current={null} onPick={(n) => void navigate(hrefWith({ table: n }), { replace: true })} />
        </section>
      ) : table ? (
        <p className="table-line">
          <Icon name="food" size={18} /> You are ordering for <strong>table {table}</strong>.{' '}
          <AppLink to={hrefWith({ table: null })} onClick={() => rememberTable(null)} className="link-quiet">
            Not your table?
          </AppLink>
        </p>
      ) : (
        <section className="card" aria-labelledby="table-ask">
          <TablePicker tables={menu.tables} current={null} onPick={(n) => void navigate(hrefWith({ table: n }), { replace: true })}>
            <p id="table-ask">
              <strong>Which table are you at?</strong> Scan the QR code on your table, or choose its number here. You can browse first.
            </p>
          </TablePicker>
        </section>
      )}

      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the menu: {errorMessage(error)}
        </LoadError>
      ) : null}

      {menu.stalls.length === 0 ? (
        <section className="card">
          <EmptyState icon="food" title="Nothing to order right now">
            The stalls are still putting their menus up. Please ask at the counter.
          </EmptyState>
        </section>
      ) : (
        <>
          <nav className="chips" aria-label="Stalls on the menu">
            <AppLink to={hrefWith({ stall: 0 })} className="chip" aria-current={!chosen ? 'page' : undefined} preventScrollReset>
              All stalls
            </AppLink>
            {menu.stalls.map((stall) => (
              <AppLink
                key={stall.id}
                to={hrefWith({ stall: stall.id })}
                className={`chip${stall.availability.state === 'open' ? '' : ' chip-closed'}`}
                aria-current={chosen?.id === stall.id ? 'page' : undefined}
                preventScrollReset
              >
                {stall.name}
                {stall.availability.state === 'open' ? null : <span className="visually-hidden"> ({stall.availability.state === 'paused' ? 'paused' : 'closed now'})</span>}
              </AppLink>
            ))}
          </nav>
          {search.stall && !chosen ? (
            <p className="banner banner-info" role="status">
              That stall is not here any more. Here is every stall.
            </p>
          ) : null}
          {menu.stalls.every((stall) => stall.availability.state !== 'open') ? (
            <p className="banner banner-info" role="status">
              No stall is taking orders right now. Each says below when it opens.
            </p>
          ) : null}
          {shown.map((stall) => (
            <StallMenu key={stall.id} stall={stall} menu={menu} onAdded={setAdded} />
          ))}
        </>
      )}
      <CartBar menu={menu} added={added} />
    </div>
  );
}

function StallMenu({ stall, menu, onAdded }: { stall: MenuStall; menu: Menu; onAdded: (added: string) => void }) {
  const modal = useModal();
  const currency = menu.currency;
  const closed = stallClosedWords(stall, menu);
  const openAdd = (item: MenuItem) =>
    modal.open({
      title: `Add ${item.name}`,
      description: `${stall.name} · ${formatMoney(item.priceCents, currency)} each`,
      content: (close) => (
        <AddToCartForm
          stall={stall}
          item={item}
          onCancel={close}
          onDone={(message) => {
            close();
            onAdded(message);
          }}
        />
      ),
    });
  const headingId = `stall-${stall.id}`;
  return (
    <section className={`card stack diner-stall${closed ? ' is-closed' : ''}`} aria-labelledby={headingId}>
      <div>
        <h2 id={headingId} className="diner-stall-name">
          {stall.name}
        </h2>
        {stall.cuisine || stall.description ? <p className="muted">{[stall.cuisine, stall.description].filter(Boolean).join(' · ')}</p> : null}
        {closed ? (
          <p className="diner-stall-closed">
            <span className="badge badge-warn">{closed}</span>
            <span className="muted small"> Browse its dishes; they can be ordered once it is open.</span>
          </p>
        ) : (
          <StallWaitLine wait={stall.wait} />
        )}
      </div>
      {stall.items.length === 0 ? (
        <p className="muted">Nothing on this stall’s menu yet.</p>
      ) : (
        byCategory(stall.items).map(([category, items]) => (
          <div key={category} className="stack diner-category">
            <h3 className="diner-category-name">{category}</h3>
            <ul className="menu-list">
              {items.map((item) => (
                <li key={item.id} className={`menu-item${item.soldOut ? ' is-sold-out' : ''}`}>
                  <div className="menu-item-main">
                    <h4 className="menu-item-name">{item.name}</h4>
                    {item.description ? <p className="menu-item-text">{item.description}</p> : null}
                    {item.allergens.length ? <p className="menu-item-allergens">Allergens: {item.allergens.join(', ')}</p> : null}
                  </div>
                  <div className="menu-item-side">
                    <span className="menu-item-price tabular">{formatMoney(item.priceCents, currency)}</span>
                    {item.soldOut ? (
                      <span className="badge badge-bad">Sold out</span>
                    ) : !canOrder(stall, item) ? null : (
                      <button type="button" className="btn btn-small btn-primary" onClick={() => openAdd(item)}>
                        <Icon name="plus" size={16} /> Add<span className="visually-hidden"> {item.name}</span>
                      </button>
                    )}
                  </div>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}

/** How long this stall takes now; with too few recent orders it says so rather than guess. */
function StallWaitLine({ wait }: { wait: MenuStall['wait'] }) {
  return (
    <p className="diner-stall-wait muted small">
      <Icon name="clock" size={14} /> {wait.minutes ? `Wait ${formatWait(wait.minutes)}` : 'Wait unknown: not enough recent orders'}
    </p>
  );
}

/** The cart so far, kept in view at the bottom of the menu, saying what was just added. */
function CartBar({ menu, added }: { menu: Menu; added: string }) {
  const cart = useCart();
  const currency = menu.currency;
  // Counted as the cart will order them: a dish that sold out (or whose stall paused) since it was added is left out.
  const available = new Map(menu.stalls.flatMap((stall) => stall.items.filter((item) => canOrder(stall, item)).map((item) => [item.id, item.priceCents] as const)));
  const orderable = cart.filter((line) => available.has(line.itemId));
  const count = orderable.reduce((sum, line) => sum + line.quantity, 0);
  const total = orderable.reduce((sum, line) => sum + line.quantity * available.get(line.itemId)!, 0);
  const leftOut = cart.length - orderable.length;
  const bar = useRef<HTMLDivElement>(null);
  // What takes focus under the bar (a keyboard's Tab, focus back from the add dialog) is scrolled
  // above it. The browser brings it just into the window, where the bar floats over it; the bar's
  // height changes with its text (two rows on a phone), so it is measured once the browser has scrolled.
  useEffect(() => {
    const clear = (event: FocusEvent) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      requestAnimationFrame(() => {
        const over = bar.current?.getBoundingClientRect();
        if (!over || bar.current!.contains(target)) return;
        const box = target.getBoundingClientRect();
        if (box.bottom > over.top && box.top < over.bottom) window.scrollBy({ top: box.bottom - over.top + 8 });
      });
    };
    document.addEventListener('focusin', clear);
    return () => document.removeEventListener('focusin', clear);
  }, []);
  return (
    <>
      {/* Always in the page, so a screen reader hears each addition (a region that appears with its text is often not read). */}
      <p className="visually-hidden" role="status">
        {added}
      </p>
      {cart.length > 0 ? (
        <div className="cart-bar" ref={bar}>
          <span className="cart-bar-text">
            <span className="tabular">
              {count} {count === 1 ? 'item' : 'items'} · {formatMoney(total, currency)}
              {leftOut ? ` · ${leftOut} not available` : ''}
            </span>
            {added ? (
              <span className="cart-bar-added" aria-hidden="true">
                <Icon name="check" size={14} /> {added}
              </span>
            ) : null}
          </span>
          <AppLink to={paths.ptCart} className="btn btn-primary">
            <Icon name="cart" size={18} /> View cart
          </AppLink>
        </div>
      ) : null}
    </>
  );
}
