import './gym.css';
import { useEffect } from 'react';
import { useNavigate, useNavigation } from 'react-router';
import { MEMBER_ACCESS_STATES, type DoorSyncStatus, type GymMember, type MemberAccessState, type MemberSort } from '@contracts/gym.contract';
import { MEMBERSHIP_VALUES, membersListReads, parseMembersSearch } from '@pages/gym.reads';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { useModal } from '@/components/modal-host';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { routeReads } from '@/lib/route-reads';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { useConfirmDelete } from '@/components/confirm-delete';
import { GymNav } from './components/gym-nav';
import { CreateMemberForm, useOwnerChoices } from './components/member-form';
import { memberDelete } from './components/gym-deletes';
import { MemberRows } from './components/member-rows';
import { MEMBERSHIP_LABELS } from './components/membership-badge';
import { SearchBox } from '@/components/search-box';
import { membersHref, lastMembersList, useMemberNews } from './gym.api';

/** The list's orders, as the Sort picker names them. */
const SORT_LABELS: Record<MemberSort, string> = { name: 'Name', '-last_visit': 'Last visit, newest first', last_visit: 'Last visit, oldest first' };

/**
 * The door filter's choices: the door access recorded of each member's last Kisi switch, in the
 * member page's words ("Last confirmed by Kisi", "Door sync failed", "Waiting for Kisi"), short enough
 * for a phone's half row. The door column asks Kisi itself, and can differ after a change made in Kisi.
 */
const ACCESS_LABELS: Record<MemberAccessState, string> = {
  open: 'Open (confirmed)',
  closed: 'Closed (confirmed)',
  waiting: 'Waiting for Kisi',
  failed: 'Door sync failed',
  no_account: 'No Kisi account',
  unconfirmed: 'Never confirmed',
};

/** The states only Kisi's word records: a switch it agreed to, or the desk's look at Kisi on the member's page (else "Never confirmed"). */
const CONFIRMED: ReadonlySet<MemberAccessState> = new Set(['open', 'closed']);

/** `/shell/gymowner/users?page&query&ownerId&membership&access&sort`: every param falls back silently. */
const reads = routeReads(membersListReads);
export const { loader } = reads;
export const handle = { title: 'Gym members', ...reads.handle };

/** Kisi cannot be reached (as the server last found it): the desk is told, with how many members wait for their doors to follow. */
function KisiAwayBanner({ status }: { status: DoorSyncStatus | undefined }) {
  if (!status || (status.kisi !== 'unreachable' && status.waiting === 0)) return null;
  const waiting = `${status.waiting} member${status.waiting === 1 ? '' : 's'}`;
  if (status.kisi !== 'unreachable') {
    return (
      <p className="banner banner-info" role="status" data-testid="door-sync-banner">
        {waiting} wait{status.waiting === 1 ? 's' : ''} for door access to follow their membership; the server is sending it to Kisi.
      </p>
    );
  }
  return (
    <div className="banner banner-warning" role="status" data-testid="door-sync-banner">
      <p>
        <strong>Kisi cannot be reached.</strong> {status.waiting > 0 ? `${waiting} wait${status.waiting === 1 ? 's' : ''} for door access to follow their membership` : 'Door access shown may be out of date'}
        {status.waiting > 0 ? '; the changes are sent by themselves when Kisi answers again.' : '.'}
      </p>
    </div>
  );
}

export function Component() {
  const { members, doorSync } = reads.useReads();
  const search = useSearch(parseMembersSearch);
  const setSearchParam = useSetSearchParam();
  const navigation = useNavigation();
  const navigate = useNavigate();
  const modal = useModal();
  const confirmDelete = useConfirmDelete();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.gymMembers;
  const here = membersHref(search);
  useEffect(() => lastMembersList.remember(here), [here]);
  // A pause that ended on its day (the server's change) shows without a reload.
  useMemberNews();
  const filtered = Boolean(search.query || search.ownerId || search.membership || search.access);

  /** Changes one filter (or the order): back to page 1; typing a search replaces the history entry. By name is the default, kept out of the URL. */
  const setFilter = (name: 'query' | 'ownerId' | 'membership' | 'access' | 'sort', value: string) => setSearchParam(name, name === 'sort' && value === 'name' ? '' : value, { replace: name === 'query' });

  const openCreate = () =>
    modal.open({
      title: 'Add a member',
      description: 'Active members can open the doors with their Kisi account.',
      content: (close) => (
        <CreateMemberForm defaultOwnerId={search.ownerId || undefined} onCancel={close} onDone={(member) => navigate(paths.gymMember(member.id))} />
      ),
    });

  const openDelete = (member: GymMember) => confirmDelete(memberDelete(member));

  return (
    <div className="stack-lg gym">
      <GymNav />
      <PageHeader
        eyebrow="Gym"
        title="Members"
        actions={
          <>
            <AppLink to={paths.gymMembersImport} className="btn">
              Import from CSV
            </AppLink>
            <button type="button" className="btn btn-primary" onClick={openCreate}>
              <Icon name="plus" size={18} /> Add member
            </button>
          </>
        }
      >
        <p>Look a member up, change their membership and see whether the doors open for them.</p>
      </PageHeader>
      <KisiAwayBanner status={doorSync.data} />

      <div className="toolbar">
        <SearchBox value={search.query} onSearch={(q) => setFilter('query', q)} label="Search members" placeholder="Search by name or email" busy={busy} />
        <div className="toolbar-filters">
          <OwnerFilter selected={search.ownerId} onChange={(value) => setFilter('ownerId', value)} />
          <label className="field-inline">
            <span>Membership</span>
            <select value={search.membership} onChange={(e) => setFilter('membership', e.target.value)}>
              <option value="">Any</option>
              {MEMBERSHIP_VALUES.map((m) => (
                <option key={m} value={m}>
                  {MEMBERSHIP_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
          <label className="field-inline">
            <span>Door access</span>
            <select value={search.access} onChange={(e) => setFilter('access', e.target.value)} data-testid="access-filter">
              <option value="">Any</option>
              {MEMBER_ACCESS_STATES.map((state) => (
                <option key={state} value={state}>
                  {ACCESS_LABELS[state]}
                </option>
              ))}
            </select>
          </label>
          <label className="field-inline">
            <span>Sort</span>
            <select value={search.sort} onChange={(e) => setFilter('sort', e.target.value)}>
              {Object.entries(SORT_LABELS).map(([value, text]) => (
                <option key={value} value={value}>
                  {text}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      <OwnerFilterNote />

      <PagedList
        page={search.page}
        pageSize={members.pageSize}
        total={members.total}
        totalIsLowerBound={members.totalIsLowerBound}
        next={members.next}
        previous={members.previous}
        count={members.items.length}
        hrefFor={(page, cursor) => membersHref({ ...search, page, next: cursor?.next ?? '', previous: cursor?.previous ?? '' })}
        label="Member pages"
        noun="members"
        empty={
          filtered ? (
            <NoMatchState title="No members match" clearTo={paths.gymMembers} clearLabel="Clear search and filters">
              {search.query ? `Nothing matches “${search.query}” with these filters.` : search.access ? `No member here is “${ACCESS_LABELS[search.access]}”.${CONFIRMED.has(search.access) ? ' Kisi confirms a member’s doors when their membership switches them, or when their page checks Kisi.' : ''}` : 'No member has this owner and membership.'}
            </NoMatchState>
          ) : (
            <EmptyState
              icon="users"
              title="No members yet"
              action={
                <button type="button" className="btn btn-primary" onClick={openCreate}>
                  Add the first member
                </button>
              }
            >
              Members belong to a gym owner; add an owner first if there is none.
            </EmptyState>
          )
        }
      >
        <MemberRows members={members.items} label="Members" onDelete={openDelete} busy={busy} />
      </PagedList>
    </div>
  );
}

/*
 * The owner filter's choices come after the list has painted (useOwnerChoices): these two read them
 * themselves, so their arrival redraws the filter and its note, not the whole list. The filter's
 * select is drawn again with its options, so the owner in the address stays chosen (see OwnerSelect).
 */

function OwnerFilter({ selected, onChange }: { selected: number | undefined; onChange: (value: string) => void }) {
  const { owners } = useOwnerChoices();
  return (
    <label className="field-inline">
      <span>Owner</span>
      <select value={selected ? String(selected) : ''} onChange={(e) => onChange(e.target.value)}>
        <option value="">All owners</option>
        {selected && !owners.some((o) => o.id === selected) ? <option value={selected}>Owner #{selected}</option> : null}
        {owners.map((owner) => (
          <option key={owner.id} value={owner.id}>
            {owner.gymName} ({owner.name})
          </option>
        ))}
      </select>
    </label>
  );
}

function OwnerFilterNote() {
  const { owners, total } = useOwnerChoices();
  return total > owners.length ? <p className="muted small">The owner filter lists the first {owners.length} of {total} owners.</p> : null;
}
