import { useNavigation } from 'react-router';
import { kisiUsersReads, parsePageQuery } from '@pages/kisi.reads';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { SearchBox } from '@/components/search-box';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { formatWhen } from '@/lib/format';
import { AccessSwitch, useAccessSwitch } from './components/access-switch';
import { KisiPages } from './components/kisi-load-error';
import { KisiTable } from './components/kisi-table';
import { kisiRouteReads } from './kisi.api';

/** `/kisi/users?page&query`: Kisi's users, a page at a time; `query` is Kisi's own search. */
const reads = kisiRouteReads(kisiUsersReads);
export const { loader } = reads;
export const handle = { title: 'Kisi users', ...reads.handle };

export function Component() {
  const { users } = reads.useReads();
  const search = useSearch(parsePageQuery);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.kisiUsers;
  const setSearchParam = useSetSearchParam();

  const onSearch = (query: string) => setSearchParam('query', query, { replace: true });

  const access = useAccessSwitch({
    onFresh: (fresh) => users.mutate((page) => page && { ...page, items: page.items.map((u) => (u.id === fresh.id ? fresh : u)) }, { revalidate: false }),
    onUnknown: () => users.mutate(),
  });

  return (
    <>
      <PageHeader eyebrow="Access control" title="Users">
        <p>Everyone with a Kisi account in the organisation. Switch a person’s door access off and on; it takes effect in Kisi at once.</p>
      </PageHeader>
      <div className="toolbar">
        <SearchBox value={search.query} onSearch={onSearch} label="Search users" placeholder="Search by name or email" busy={busy} />
      </div>

      <KisiPages
        what="the users"
        read={users}
        search={search}
        path={paths.kisiUsers}
        label="User pages"
        noun="users"
        empty={
          search.query ? (
            <NoMatchState title="No users match" clearTo={paths.kisiUsers}>
              Kisi has no user matching “{search.query}”.
            </NoMatchState>
          ) : (
            <EmptyState icon="users" title="No users in Kisi">
              People appear here once they have a Kisi account.
            </EmptyState>
          )
        }
      >
        {(items) => (
          <KisiTable label="Kisi users" busy={busy} columns={[{ label: 'Name' }, { label: 'Email' }, { label: 'Door access' }, { label: 'Last access' }]}>
            {items.map((user) => (
              <tr key={user.id}>
                <td className="cell-main">
                  <AppLink to={paths.kisiUser(user.id)} className="cell-title">
                    {user.name}
                  </AppLink>
                  {user.scim_access_enabled ? null : <span className="cell-sub">Access off in the directory (SCIM)</span>}
                </td>
                <td data-label="Email">{user.email}</td>
                <td data-label="Door access">
                  <AccessSwitch name={user.name} checked={access.shown(user)} pending={access.pending(user)} onChange={(next) => access.switchAccess(user, next)} />
                </td>
                <td data-label="Last access" className={user.last_accessed_at ? undefined : 'cell-muted'}>
                  {user.last_accessed_at ? formatWhen(user.last_accessed_at) : 'Never'}
                </td>
              </tr>
            ))}
          </KisiTable>
        )}
      </KisiPages>
    </>
  );
}
