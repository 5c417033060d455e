import './gym.css';
import { Outlet, useNavigate } from 'react-router';
import { Icon } from '@/components/icon';
import { useModal } from '@/components/modal-host';
import { paths } from '@/lib/paths';
import { AppLink, AppNavLink } from '@/lib/app-link';
import { useConfirmDelete } from '@/components/confirm-delete';
import { GymNav } from './components/gym-nav';
import { memberDelete } from './components/gym-deletes';
import { EditMemberForm } from './components/member-form';
import { MembershipBadge } from './components/membership-badge';
import { lastMembersList, useMemberNews } from './gym.api';
import { memberLayout, useMember } from './member';

/** `/shell/gymowner/users/:id` loads the member once for all tabs (see `member.ts`, where its tabs read it). */
export const { loader } = memberLayout;
export const handle = { title: 'Gym member', ...memberLayout.handle };

/** The member's tabs. */
const tabs = (id: number) => [
  { to: paths.gymMember(id), label: 'Profile', end: true },
  { to: paths.gymMemberUnlocks(id), label: 'Unlocks' },
  { to: paths.gymMemberLinks(id), label: 'Access links' },
];

export function Component() {
  const member = useMember();
  const modal = useModal();
  const confirmDelete = useConfirmDelete();
  const navigate = useNavigate();
  const memberTabs = tabs(member.id);
  // A pause that ends on its day is the server's change: the open page follows it.
  useMemberNews(member.id);

  const openEdit = () =>
    modal.open({
      title: `Edit ${member.name}`,
      content: (close) => <EditMemberForm member={member} onCancel={close} onDone={close} />,
    });

  const openDelete = () => confirmDelete({ ...memberDelete(member), afterDelete: () => navigate(lastMembersList.get(), { replace: true }) });

  return (
    <div className="stack-lg gym">
      <GymNav />
      <AppLink to={lastMembersList.get()} className="back-link">
        ← All members
      </AppLink>
      <header className="page-header member-head">
        <div>
          <p className="eyebrow">Gym member</p>
          <h1>{member.name}</h1>
          <p className="lede member-lede">
            <MembershipBadge membership={member.membership} pausedUntil={member.pausedUntil} sayComesBack /> <span>{member.email}</span>
          </p>
        </div>
        <div className="page-actions">
          <button type="button" className="btn" onClick={openEdit}>
            <Icon name="edit" size={18} /> Edit
          </button>
          <button type="button" className="btn" onClick={openDelete}>
            <Icon name="trash" size={18} /> Delete
          </button>
        </div>
      </header>
      {memberTabs.length > 1 ? (
        <nav className="tabs" aria-label={`${member.name}`}>
          {memberTabs.map((tab) => (
            <AppNavLink key={tab.to} to={tab.to} end={tab.end} className="tab">
              {tab.label}
            </AppNavLink>
          ))}
        </nav>
      ) : null}
      <Outlet />
    </div>
  );
}
