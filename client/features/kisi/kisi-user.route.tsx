import { useParams } from 'react-router';
import type { KisiRoleAssignment, KisiUser } from '@contracts/kisi.contract';
import { kisiUserReads } from '@pages/kisi.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { Spinner } from '@/components/spinner';
import { paths } from '@/lib/paths';
import { AppLink } from '@/lib/app-link';
import { formatWhen } from '@/lib/format';
import { AccessSwitch, useAccessSwitch } from './components/access-switch';
import { KisiLoadError, KisiLoaded } from './components/kisi-load-error';
import { KisiTable } from './components/kisi-table';
import { kisiRouteReads } from './kisi.api';
import { kisiErrorMessage, type KisiPage } from '@/lib/kisi';
import type { InPageRead } from '@/lib/route-reads';

/** `/kisi/users/:user_id`: the user and their role assignments, read side by side (a Kisi outage shows inside the page). A malformed or unknown id is not found. */
const reads = kisiRouteReads(kisiUserReads);
export const { loader } = reads;
export const handle = { title: 'Kisi user', ...reads.handle };

const ROLE_NAMES: Record<string, string> = {
  administrator: 'Administrator',
  group_basic: 'Group member',
  group_manager: 'Group manager',
  place_manager: 'Place manager',
};
const roleName = (id: string) => ROLE_NAMES[id] ?? id.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const APPLIES_TO: Record<KisiRoleAssignment['applies_to_type'], string> = { Organization: 'Organisation', Place: 'Place', Group: 'Group' };

/** Whether an assignment gives access now, from its validity window. */
function validity(role: KisiRoleAssignment, now = Date.now()): { label: string; tone: 'ok' | 'bad' | 'warn' } {
  if (role.valid_from && Date.parse(role.valid_from) > now) return { label: 'Not yet valid', tone: 'warn' };
  if (role.valid_until && Date.parse(role.valid_until) <= now) return { label: 'Expired', tone: 'bad' };
  return { label: 'Valid', tone: 'ok' };
}

function Profile({ user, onChanged }: { user: KisiUser; onChanged: (user?: KisiUser) => Promise<unknown> }) {
  const access = useAccessSwitch({ onFresh: onChanged, onUnknown: () => onChanged() });
  return (
    <section className="card" aria-labelledby="profile-title">
      <h2 id="profile-title" className="card-heading">
        <Icon name="user" /> Profile
      </h2>
      <dl className="facts">
        <div>
          <dt>Name</dt>
          <dd>{user.name}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>Door access</dt>
          <dd>
            <AccessSwitch name={user.name} checked={access.shown(user)} pending={access.pending(user)} onChange={(next) => access.switchAccess(user, next)} />
          </dd>
        </div>
        <div>
          <dt>SCIM access</dt>
          <dd>
            <span className={`badge ${user.scim_access_enabled ? 'badge-ok' : 'badge-bad'}`}>{user.scim_access_enabled ? 'On' : 'Off'}</span>
          </dd>
        </div>
        <div>
          <dt>Last access</dt>
          <dd>{user.last_accessed_at ? formatWhen(user.last_accessed_at) : <span className="muted">Never</span>}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{formatWhen(user.created_at)}</dd>
        </div>
      </dl>
    </section>
  );
}

function RoleAssignments({ read }: { read: InPageRead<KisiPage<KisiRoleAssignment>> }) {
  return (
    <section className="card stack" aria-labelledby="roles-title">
      <h2 id="roles-title" className="card-heading">
        <Icon name="key" /> Role assignments
      </h2>
      <p className="muted">What this person may open: a role on the whole organisation, a place or a group, each valid for a time.</p>
      <KisiLoaded what="the role assignments" read={read}>
        {(roles) =>
          roles.items.length === 0 ? (
            <EmptyState icon="key" title="No role assignments">
              This person has no role anywhere, so no door opens for them.
            </EmptyState>
          ) : (
            <KisiTable label="Role assignments" columns={[{ label: 'Role' }, { label: 'Applies to' }, { label: 'Valid from' }, { label: 'Valid until' }, { label: 'Now' }]}>
              {roles.items.map((role) => {
                const state = validity(role);
                return (
                  <tr key={role.id}>
                    <td className="cell-main">
                      <span className="cell-title">{roleName(role.role_id)}</span>
                    </td>
                    <td data-label="Applies to">
                      {/* One item, so the card layout does not push the name and its kind apart. */}
                      <span>
                        {role.applies_to.name} <span className="badge badge-muted">{APPLIES_TO[role.applies_to_type]}</span>
                      </span>
                    </td>
                    <td data-label="Valid from" className={role.valid_from ? undefined : 'cell-muted'}>
                      {role.valid_from ? formatWhen(role.valid_from) : 'Always'}
                    </td>
                    <td data-label="Valid until" className={role.valid_until ? undefined : 'cell-muted'}>
                      {role.valid_until ? formatWhen(role.valid_until) : 'No end'}
                    </td>
                    <td data-label="Now">
                      <span className={`badge badge-${state.tone}`}>{state.label}</span>
                    </td>
                  </tr>
                );
              })}
            </KisiTable>
          )
        }
      </KisiLoaded>
    </section>
  );
}

export function Component() {
  const { user: userRead, roles } = reads.useReads();
  const { data: user, error, isValidating, mutate } = userRead;
  const id = useParams().user_id;
  return (
    <>
      <AppLink to={paths.kisiUsers} className="back-link">
        ← All users
      </AppLink>
      <header className="page-header">
        <div>
          <p className="eyebrow">Kisi user</p>
          <h1>{user?.name ?? `User #${id}`}</h1>
          {user ? <p className="lede">{user.email}</p> : null}
        </div>
      </header>
      {error ? <KisiLoadError what="this user" message={kisiErrorMessage(error)} onRetry={() => void mutate()} retrying={isValidating} /> : null}
      <div className="kisi-detail">
        {user ? <Profile user={user} onChanged={(fresh) => (fresh ? mutate(fresh, { revalidate: false }) : mutate())} /> : error ? null : <Spinner />}
        <RoleAssignments read={roles} />
      </div>
    </>
  );
}
