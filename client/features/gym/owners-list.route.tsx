import { useNavigation } from 'react-router';
import type { GymOwner } from '@contracts/gym.contract';
import { ownersListReads, parseOwnersSearch, type OwnersSearch } from '@pages/gym.reads';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { useModal } from '@/components/modal-host';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { routeReads } from '@/lib/route-reads';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { DeleteButton, useConfirmDelete } from '@/components/confirm-delete';
import { ownerDelete } from './components/gym-deletes';
import { CreateOwnerForm } from './components/owner-form';
import { SearchBox } from '@/components/search-box';

/** `/gymowners/?page&query`: the URL page is 1-based, the API page 0-based; bad input → page 1. */
const reads = routeReads(ownersListReads);
export const { loader } = reads;
export const handle = { title: 'Gym owners', ...reads.handle };

/** The URL of the list with some params changed (page 1 and an empty query are left out). */
export function ownersHref(search: OwnersSearch): string {
  const params = new URLSearchParams();
  if (search.query) params.set('query', search.query);
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.gymOwners}/?${query}` : `${paths.gymOwners}/`;
}

export function Component() {
  const { owners } = reads.useReads();
  const search = useSearch(parseOwnersSearch);
  const setSearchParam = useSetSearchParam();
  const navigation = useNavigation();
  const modal = useModal();
  const confirmDelete = useConfirmDelete();
  const searching = navigation.state === 'loading' && navigation.location.pathname.startsWith(paths.gymOwners);

  const onSearch = (query: string) => setSearchParam('query', query, { replace: true });

  const openCreate = () =>
    modal.open({
      title: 'Add a gym owner',
      description: 'The owner of a gym whose members use the venue.',
      content: (close) => <CreateOwnerForm onCancel={close} onDone={close} />,
    });

  const openDelete = (owner: GymOwner) =>
    confirmDelete({
      ...ownerDelete(owner),
      refusedExtra: (
        <AppLink to={paths.gymOwner(owner.id)} className="btn btn-small">
          See their members
        </AppLink>
      ),
    });

  return (
    <div className="stack-lg">
      <PageHeader
        eyebrow="Gym"
        title="Gym owners"
        actions={
          <button type="button" className="btn btn-primary" onClick={openCreate}>
            <Icon name="plus" size={18} /> Add owner
          </button>
        }
      >
        <p>The gyms whose members use the venue, and who runs them.</p>
      </PageHeader>

      <div className="toolbar">
        <SearchBox value={search.query} onSearch={onSearch} label="Search owners" placeholder="Search by name, email or gym" busy={searching} />
      </div>

      <PagedList
        page={search.page}
        pageSize={owners.pageSize}
        total={owners.total}
        count={owners.items.length}
        hrefFor={(page) => ownersHref({ ...search, page })}
        label="Owner pages"
        noun="owners"
        empty={
          search.query ? (
            <NoMatchState title="No owners match" clearTo={ownersHref({ page: 1, query: '' })}>
              Nothing matches “{search.query}”. Check the spelling or search by email.
            </NoMatchState>
          ) : (
            <EmptyState
              icon="users"
              title="No gym owners yet"
              action={
                <button type="button" className="btn btn-primary" onClick={openCreate}>
                  Add the first owner
                </button>
              }
            >
              Add the owners of the gyms whose members use the venue.
            </EmptyState>
          )
        }
      >
        <ul className="gym-list" aria-label="Gym owners" aria-busy={searching}>
          {owners.items.map((owner) => (
            <li key={owner.id} className="gym-row">
              <AppLink to={paths.gymOwner(owner.id)} className="gym-row-main">
                <span className="gym-row-title">{owner.name}</span>
                <span className="gym-row-sub">
                  {owner.gymName} · {owner.email}
                </span>
              </AppLink>
              <span className="gym-row-meta tabular">
                {owner.memberCount} {owner.memberCount === 1 ? 'member' : 'members'}
              </span>
              <DeleteButton label={`Delete ${owner.name}`} onClick={() => openDelete(owner)} />
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}
