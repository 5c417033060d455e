import { data, useLoaderData, useNavigate, useParams } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { MenuItem } from '@contracts/pt.contract';
import { stallRead, stallReads } from '@pages/pt.reads';
import { AsyncButton } from '@/components/async-button';
import { useConfirmDelete } from '@/components/confirm-delete';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useModal } from '@/components/modal-host';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { dinerMenuPath, paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useIsStaff } from './staff-session';
import { MenuItemForm } from './components/menu-item-form';
import { StallHoursForm, hoursSummary } from './components/stall-hours-form';
import { itemDelete, stallDelete } from './components/pt-deletes';
import { stallClosedWords } from './live-menu';
import { byCategory } from './menu-groups';
import { menuQuery, updateItem, updateStall } from './pt.api';
import { formatMoney } from './pt-format';

const reads = routeReads(stallReads);

/** `/pt/stalls/:id`: the stall's menu (a malformed or unknown id → not found). The menu call brings the venue's currency. */
export async function loader(args: LoaderFunctionArgs) {
  const { stall, menu } = await reads.loader(args);
  if (!stall) throw data(`No stall with id ${args.params.id ?? ''}`, { status: 404, statusText: 'Not Found' });
  return { stall, menu };
}

export const handle = { title: 'Stall', ...reads.handle };

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const id = Number(useParams().id);
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above the menu still shown.
  const { data: stall, error, isValidating, mutate } = useRead(queryOf(stallRead(id)), loaded.stall);
  const menu = useRead(menuQuery, loaded.menu).data;
  const { currency, timeZone } = menu;
  // Whether diners can order from it now (its hours), as the menu says; not paused, and no menu entry yet: open.
  const onMenu = menu.stalls.find((s) => s.id === id);
  const closedNow = onMenu && onMenu.availability.state === 'closed' ? stallClosedWords(onMenu, menu) : undefined;
  const staff = useIsStaff();
  const modal = useModal();
  const toast = useToast();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();
  const groups = byCategory(stall.items);
  const categories = groups.map(([category]) => category);
  const paused = stall.status === 'paused';

  const openItemForm = (item?: MenuItem) =>
    modal.open({
      title: item ? `Edit ${item.name}` : `Add an item to ${stall.name}`,
      content: (close) => <MenuItemForm stallId={stall.id} item={item} currency={currency} categories={categories} onCancel={close} onDone={close} />,
    });

  const openHoursForm = () =>
    modal.open({
      title: `Opening hours of ${stall.name}`,
      content: (close) => <StallHoursForm stall={stall} timeZone={timeZone} onCancel={close} onDone={close} />,
    });

  const togglePause = async () => {
    try {
      await updateStall({ params: { id: stall.id }, body: { status: paused ? 'open' : 'paused' } });
      toast.show({ tone: 'success', message: paused ? `${stall.name} is open again: diners can order from it.` : `${stall.name} is paused: diners see it as paused and cannot order from it.` });
    } catch (err) {
      toast.show({ tone: 'error', title: paused ? `Could not open ${stall.name}` : `Could not pause ${stall.name}`, message: errorMessage(err) });
    }
  };

  const toggleSoldOut = async (item: MenuItem) => {
    try {
      await updateItem({ params: { id: item.id }, body: { soldOut: !item.soldOut } });
      toast.show({ tone: 'success', message: item.soldOut ? `${item.name} is available again.` : `${item.name} is marked sold out.` });
    } catch (err) {
      toast.show({ tone: 'error', title: `Could not change ${item.name}`, message: errorMessage(err) });
    }
  };

  const openDeleteStall = () =>
    confirmDelete({
      ...stallDelete(stall),
      afterDelete: () => void navigate(paths.ptStalls, { replace: true }),
    });

  return (
    <div className="stack-lg">
      <AppLink to={paths.ptStalls} className="back-link">
        ← All stalls
      </AppLink>
      <PageHeader
        eyebrow={stall.cuisine ?? 'Stall'}
        title={stall.name}
        actions={
          staff ? (
            <>
              <button type="button" className="btn btn-primary" onClick={() => openItemForm()}>
                <Icon name="plus" size={18} /> Add item
              </button>
              <button type="button" className="btn" onClick={openHoursForm}>
                <Icon name="clock" size={18} /> Opening hours
              </button>
              <AsyncButton className="btn" run={togglePause} pendingLabel={paused ? 'Opening…' : 'Pausing…'}>
                <Icon name={paused ? 'play' : 'pause'} size={18} /> {paused ? 'Open stall' : 'Pause stall'}
              </AsyncButton>
              <button type="button" className="btn" onClick={openDeleteStall}>
                <Icon name="trash" size={18} /> Delete
              </button>
            </>
          ) : !paused && !closedNow && stall.items.length ? (
            <AppLink to={dinerMenuPath({ stall: stall.id })} className="btn btn-primary">
              <Icon name="cart" size={18} /> Order from this stall
            </AppLink>
          ) : null
        }
      >
        <p className="stall-lede">
          {paused ? <span className="badge badge-warn">Paused</span> : closedNow ? <span className="badge badge-warn">{closedNow}</span> : <span className="badge badge-ok">Open</span>}
          {stall.description ? <span>{stall.description}</span> : null}
        </p>
      </PageHeader>

      {paused ? (
        <div className="banner banner-warning" role="status">
          {stall.name} is paused: diners see it as paused and cannot order from it{staff ? '. Open it again when it is serving.' : ' until it opens again.'}
        </div>
      ) : null}

      <section className="card stall-hours" aria-labelledby="stall-hours-title">
        <h2 id="stall-hours-title" className="card-heading">
          <Icon name="clock" /> Opening hours
        </h2>
        {stall.hours ? (
          <dl className="stall-hours-week">
            {hoursSummary(stall.hours).map(({ day, text }) => (
              <div key={day}>
                <dt>{day}</dt>
                <dd className={`tabular${text === 'Closed' ? ' muted' : ''}`}>{text}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">No set hours: open whenever it is not paused.</p>
        )}
        {stall.hours ? <p className="muted small">In the venue’s time ({timeZone}).</p> : null}
      </section>

      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the menu: {errorMessage(error)}
        </LoadError>
      ) : null}

      {groups.length === 0 ? (
        <section className="card">
          <EmptyState
            icon="food"
            title="No items on the menu yet"
            action={
              staff ? (
                <button type="button" className="btn btn-primary" onClick={() => openItemForm()}>
                  Add the first item
                </button>
              ) : null
            }
          >
            {staff ? 'Add the dishes this stall serves, with their prices.' : 'This stall has not put its menu up yet.'}
          </EmptyState>
        </section>
      ) : (
        groups.map(([category, items]) => (
          <section key={category} className="stack menu-section" aria-labelledby={`category-${encodeURIComponent(category)}`}>
            <h2 id={`category-${encodeURIComponent(category)}`} className="section-title">
              {category}
            </h2>
            <ul className="menu-list">
              {items.map((item) => (
                <li key={item.id} className={`menu-item${item.soldOut ? ' is-sold-out' : ''}`}>
                  <div className="menu-item-main">
                    <h3 className="menu-item-name">{item.name}</h3>
                    {item.description ? <p className="menu-item-text">{item.description}</p> : null}
                    {item.allergens.length ? <p className="menu-item-allergens">Allergens: {item.allergens.join(', ')}</p> : null}
                  </div>
                  <div className="menu-item-side">
                    <span className="menu-item-price tabular">{formatMoney(item.priceCents, currency)}</span>
                    {item.soldOut ? <span className="badge badge-bad">Sold out</span> : null}
                  </div>
                  {staff ? (
                    <div className="menu-item-actions">
                      <button type="button" className="btn btn-small" onClick={() => openItemForm(item)}>
                        <Icon name="edit" size={16} /> Edit<span className="visually-hidden"> {item.name}</span>
                      </button>
                      <AsyncButton run={() => toggleSoldOut(item)} pendingLabel="Saving…">
                        {item.soldOut ? 'Mark available' : 'Mark sold out'}<span className="visually-hidden"> {item.name}</span>
                      </AsyncButton>
                      <button type="button" className="btn btn-small danger-hover" onClick={() => confirmDelete(itemDelete(item))}>
                        <Icon name="trash" size={16} /> Delete<span className="visually-hidden"> {item.name}</span>
                      </button>
                    </div>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
