import { useLoaderData, useNavigate, useNavigation } from 'react-router';
import type { Stall } from '@contracts/pt.contract';
import { parseStallsSearch, stallsListReads, stallsRead } from '@pages/pt.reads';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { LoadError } from '@/components/load-error';
import { useModal } from '@/components/modal-host';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { SearchBox } from '@/components/search-box';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { useIsStaff } from './staff-session';
import { stallDelete } from './components/pt-deletes';
import { CreateStallForm } from './components/stall-form';
import { stallsHref } from './pt.api';

/** `/pt/stalls?page&query`: the URL page is 1-based, the API page 0-based; bad input → page 1. */
const reads = routeReads(stallsListReads);
export const { loader } = reads;
export const handle = { title: 'Stalls', ...reads.handle };

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const search = useSearch(parseStallsSearch);
  // The hook itself rather than `reads.useReads()`: a failed refresh is said above the stalls still shown.
  const { data: stalls, error, isValidating, mutate } = useRead(queryOf(stallsRead(search)), loaded.stalls);
  const staff = useIsStaff();
  const setSearchParam = useSetSearchParam();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const modal = useModal();
  const confirmDelete = useConfirmDelete();
  const searching = navigation.state === 'loading' && navigation.location.pathname === paths.ptStalls;

  const openCreate = () =>
    modal.open({
      title: 'Add a stall',
      description: 'A new stall is open, with an empty menu.',
      content: (close) => <CreateStallForm onCancel={close} onDone={(id) => void navigate(paths.ptStall(id))} />,
    });

  const openDelete = (stall: Stall) =>
    confirmDelete({
      ...stallDelete(stall),
      afterDelete: (close) => {
        close();
        // The last row of a later page: go back to the page before, which still has rows.
        if (stalls.items.length === 1 && search.page > 1) void navigate(stallsHref({ ...search, page: search.page - 1 }), { replace: true });
      },
    });

  return (
    <div className="stack-lg">
      <PageHeader
        eyebrow="Food court"
        title="Stalls"
        actions={
          staff ? (
            <button type="button" className="btn btn-primary" onClick={openCreate}>
              <Icon name="plus" size={18} /> Add stall
            </button>
          ) : null
        }
      >
        <p>Every stall of the food court. Open one to see its menu{staff ? ', change it, or pause the stall' : ''}.</p>
      </PageHeader>

      <div className="toolbar">
        <SearchBox value={search.query} onSearch={(query) => setSearchParam('query', query, { replace: true })} label="Search stalls" placeholder="Search by name or cuisine" busy={searching} />
      </div>

      {error ? (
        <LoadError onRetry={() => void mutate()} retrying={isValidating}>
          Could not refresh the stalls: {errorMessage(error)}
        </LoadError>
      ) : null}

      <PagedList
        page={search.page}
        pageSize={stalls.pageSize}
        total={stalls.total}
        count={stalls.items.length}
        hrefFor={(page) => stallsHref({ ...search, page })}
        label="Stall pages"
        noun="stalls"
        empty={
          search.query ? (
            <NoMatchState title="No stalls match" clearTo={stallsHref({ page: 1, query: '' })}>
              Nothing matches “{search.query}”. Try a cuisine, such as “noodles”.
            </NoMatchState>
          ) : (
            <EmptyState
              icon="food"
              title="No stalls yet"
              action={
                staff ? (
                  <button type="button" className="btn btn-primary" onClick={openCreate}>
                    Add the first stall
                  </button>
                ) : null
              }
            >
              {staff ? 'Add the food court’s stalls, then their menus.' : 'The food court has no stalls yet. Come back soon.'}
            </EmptyState>
          )
        }
      >
        <ul className="pt-list" aria-label="Stalls" aria-busy={searching}>
          {stalls.items.map((stall) => (
            <li key={stall.id} className="pt-row">
              <AppLink to={paths.ptStall(stall.id)} className="pt-row-main">
                <span className="pt-row-title">{stall.name}</span>
                <span className="pt-row-sub">{[stall.cuisine, stall.description].filter(Boolean).join(' · ') || 'No description yet'}</span>
              </AppLink>
              <span className="pt-row-meta tabular">
                {stall.status === 'paused' ? <span className="badge badge-warn">Paused</span> : <span className="badge badge-ok">Open</span>}
                <span>
                  {stall.itemCount} {stall.itemCount === 1 ? 'item' : 'items'}
                </span>
              </span>
              {staff ? <DeleteButton label={`Delete ${stall.name}`} onClick={() => openDelete(stall)} /> : null}
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}
