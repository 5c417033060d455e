import { useNavigation } from 'react-router';
import { kisiMembersReads, parsePage } from '@pages/kisi.reads';
import { EmptyState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { formatWhen } from '@/lib/format';
import { useSearch } from '@/lib/search-params';
import { KisiPages } from './components/kisi-load-error';
import { KisiTable } from './components/kisi-table';
import { kisiRouteReads } from './kisi.api';

/** `/kisi/members?page`: Kisi's members (its older view of the organisation's people, with their role). */
const reads = kisiRouteReads(kisiMembersReads);
export const { loader } = reads;
export const handle = { title: 'Kisi members', ...reads.handle };

const roleName = (id: string) => id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

export function Component() {
  const { members } = reads.useReads();
  const search = useSearch(parsePage);
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.kisiMembers;

  return (
    <>
      <PageHeader eyebrow="Access control" title="Members">
        <p>The organisation’s members as Kisi lists them, with their organisation role and whether their access is on.</p>
      </PageHeader>
      <KisiPages
        what="the members"
        read={members}
        search={search}
        path={paths.kisiMembers}
        label="Member pages"
        noun="members"
        empty={
          <EmptyState icon="users" title="No members in Kisi">
            People appear here once they belong to the organisation in Kisi.
          </EmptyState>
        }
      >
        {(items) => (
          <KisiTable label="Kisi members" busy={busy} columns={[{ label: 'Name' }, { label: 'Email' }, { label: 'Role' }, { label: 'Access' }, { label: 'Last access' }]}>
            {items.map((member) => (
              <tr key={member.id}>
                <td className="cell-main">
                  <AppLink to={paths.kisiUser(member.user_id)} className="cell-title">
                    {member.name}
                  </AppLink>
                </td>
                <td data-label="Email">{member.user.email}</td>
                <td data-label="Role">{roleName(member.role_id)}</td>
                <td data-label="Access">
                  <span className={`badge ${member.access_enabled ? 'badge-ok' : 'badge-bad'}`}>{member.access_enabled ? 'On' : 'Off'}</span>
                </td>
                <td data-label="Last access" className={member.last_accessed_at ? undefined : 'cell-muted'}>
                  {member.last_accessed_at ? formatWhen(member.last_accessed_at) : 'Never'}
                </td>
              </tr>
            ))}
          </KisiTable>
        )}
      </KisiPages>
    </>
  );
}
