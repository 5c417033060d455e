import './team.css';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Role } from '@contracts/endpoint.contract';
import { LINK_HOURS, type Invitation, type TeamAccount } from '@contracts/team.contract';
import { teamPageReads } from '@pages/team.reads';
import { AsyncButton } from '@/components/async-button';
import { ConfirmDelete, useConfirmDelete } from '@/components/confirm-delete';
import { EraseChoice } from '@/components/erase-choice';
import { EmptyState } from '@/components/empty-state';
import { FormActions, ModalForm, SelectField, TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { useModal } from '@/components/modal-host';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { errorMessage } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { formatLastVisit, formatWhen } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { useShellUser } from '@/lib/session';
import { EmailText } from './components/email-text';
import { OneTimeLink } from './components/one-time-link';
import {
  LINK_HOUR_LABELS,
  ROLES_IN_ORDER,
  ROLE_HINTS,
  AS_ROLE,
  ROLE_LABELS,
  changeRole,
  changeStatus,
  invite,
  joinUrl,
  makeResetLink,
  removeAccount,
  resetUrl,
  withdrawInvitation,
} from './team.api';

/** `/shell/team` (admins): every account, the open invitations, and what an admin does about them. */
const reads = routeReads(teamPageReads);
export const { loader } = reads;
export const handle = { title: 'Team', ...reads.handle };

/** "Ada Lovelace" or, for an account without a name yet, its email. */
const nameOf = (account: { name: string; email: string }) => account.name || account.email;

function LinkHoursField({ field }: { field: { value: string; onChange: (event: { target: { value: string } }) => void; error?: string } }) {
  return (
    <SelectField label="Valid for" {...field} hint="The link works once, until then.">
      {LINK_HOURS.map((hours) => (
        <option key={hours} value={hours}>
          {LINK_HOUR_LABELS[hours]}
        </option>
      ))}
    </SelectField>
  );
}

/**
 * Invite someone: the form, then the link it made, shown once. A 409 (the email has an account
 * already) lands on the email.
 */
function InviteForm({ onClose }: { onClose: () => void }) {
  const toast = useToast();
  const [created, setCreated] = useState<{ url: string; invitation: Invitation; expiresAt: string }>();
  const form = useForm({
    schema: invite.endpoint.body,
    initial: { email: '', role: 'runner', expiresInHours: '72' },
    toInput: (values) => ({ email: values.email, role: values.role, expiresInHours: Number(values.expiresInHours) }),
    send: async (body) => {
      const { invitation, link } = await invite({ body });
      setCreated({ url: joinUrl(link.token), invitation, expiresAt: link.expiresAt });
      toast.show({ tone: 'success', message: `Invitation for ${invitation.email} made.` });
    },
    conflictField: 'email',
  });

  if (created) {
    const { invitation } = created;
    return (
      <OneTimeLink
        url={created.url}
        expiresAt={created.expiresAt}
        facts={[
          { label: 'For', value: <EmailText email={invitation.email} /> },
          { label: 'Role', value: ROLE_LABELS[invitation.role] },
        ]}
        onClose={onClose}
      />
    );
  }

  const role = form.values.role as Role;
  return (
    <ModalForm form={form}>
      <TextField label="Email" type="email" inputMode="email" autoComplete="off" {...form.field('email')} hint="They sign in with it. No mail is sent: you pass the link on." data-autofocus />
      <SelectField label="Role" {...form.field('role')} hint={ROLE_HINTS[role]}>
        {ROLES_IN_ORDER.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </SelectField>
      <LinkHoursField field={form.field('expiresInHours')} />
      <FormActions pending={form.pending} submitLabel="Make the invitation link" pendingLabel="Making…" onCancel={onClose} />
    </ModalForm>
  );
}

/** A reset link for someone who forgot their password: their password works until they use it; an earlier reset link stops working. */
function ResetLinkForm({ account, onClose }: { account: TeamAccount; onClose: () => void }) {
  const [created, setCreated] = useState<{ url: string; expiresAt: string }>();
  const form = useForm({
    schema: makeResetLink.endpoint.body,
    initial: { expiresInHours: '24' },
    toInput: (values) => ({ expiresInHours: Number(values.expiresInHours) }),
    send: async (body) => {
      const link = await makeResetLink({ params: { id: account.id }, body });
      setCreated({ url: resetUrl(link.token), expiresAt: link.expiresAt });
    },
  });
  if (created) return <OneTimeLink url={created.url} expiresAt={created.expiresAt} facts={[{ label: 'For', value: nameOf(account) }, { label: 'Email', value: <EmailText email={account.email} /> }]} onClose={onClose} />;
  return (
    <ModalForm form={form}>
      <p>
        {nameOf(account)} opens the link and chooses a new password; then their other sessions end. Until then their current password still works. An earlier reset link for
        them stops working.
      </p>
      <LinkHoursField field={form.field('expiresInHours')} />
      <FormActions pending={form.pending} submitLabel="Make the reset link" pendingLabel="Making…" onCancel={onClose} />
    </ModalForm>
  );
}

/** What went wrong with the last change, above the table until the next one (a toast would be gone before it is read). */
type Notice = { title: string; detail: string };

function AccountRow({ account, me, onRefused }: { account: TeamAccount; me: boolean; onRefused: (notice: Notice | undefined) => void }) {
  const modal = useModal();
  const toast = useToast();
  const navigate = useNavigate();
  const confirmDelete = useConfirmDelete();
  const [changingRole, setChangingRole] = useState(false);
  const name = nameOf(account);
  const active = account.status === 'active';

  const applyRole = async (role: Role) => {
    onRefused(undefined);
    setChangingRole(true);
    try {
      await changeRole({ params: { id: account.id }, body: { role } });
      toast.show({ tone: 'success', message: me ? `You are now ${AS_ROLE[role]}.` : `${name} is now ${AS_ROLE[role]}.` });
      // An admin no more: this page is not theirs now.
      if (me && role !== 'admin') await navigate(paths.shell);
    } catch (error) {
      onRefused({ title: `Could not change ${me ? 'your' : `${name}’s`} role`, detail: errorMessage(error) });
    } finally {
      setChangingRole(false);
    }
  };

  const onRoleChange = (role: Role) => {
    if (role === account.role) return;
    if (!(me && role !== 'admin')) return void applyRole(role);
    modal.open({
      title: `Make yourself ${AS_ROLE[role]}?`,
      content: (close) => (
        <ConfirmDelete confirmLabel={`Become ${AS_ROLE[role]}`} pendingLabel="Changing…" onCancel={close} onConfirm={async () => {
            close();
            await applyRole(role);
          }}
        >
          <p>You will no longer be an admin: this page, the audit trail and door access close to you. Only another admin can make you one again.</p>
        </ConfirmDelete>
      ),
    });
  };

  const openDeactivate = () =>
    modal.open({
      title: `Deactivate ${name}?`,
      content: (close) => (
        <ConfirmDelete
          confirmLabel="Deactivate"
          pendingLabel="Deactivating…"
          onCancel={close}
          onConfirm={async () => {
            await changeStatus({ params: { id: account.id }, body: { status: 'deactivated' } });
            toast.show({ tone: 'success', message: `${name} is deactivated and signed out everywhere.` });
            close();
          }}
        >
          <p>
            {name} can no longer sign in. Their sessions end at once on every device: a tab they have open says they are signed out. You can reactivate the account later.
          </p>
        </ConfirmDelete>
      ),
    });

  const reactivate = async () => {
    onRefused(undefined);
    try {
      await changeStatus({ params: { id: account.id }, body: { status: 'active' } });
      toast.show({ tone: 'success', message: `${name} can sign in again.` });
    } catch (error) {
      onRefused({ title: `Could not reactivate ${name}`, detail: errorMessage(error) });
    }
  };

  const openResetLink = () =>
    modal.open({
      title: `Reset link for ${name}`,
      description: 'A one-use link to choose a new password.',
      content: (close) => <ResetLinkForm account={account} onClose={close} />,
    });

  const openDelete = () => {
    let erase = false;
    confirmDelete({
      title: `Delete ${name}’s account?`,
      confirmLabel: 'Delete account',
      body: (
        <>
          <p>
            {name} ({account.email}) is signed out everywhere and the account is gone; the audit trail keeps what they did. To stop their sign-ins but keep the account, deactivate
            it instead.
          </p>
          <EraseChoice
            onChange={(value) => (erase = value)}
            keeps={`Their messages keep their words and their files stay, both under “Erased person”; the audit trail keeps what they did and calls them account #${account.id}.`}
          />
        </>
      ),
      remove: () => removeAccount({ params: { id: account.id }, query: { erase } }),
      deleted: `${name}’s account is deleted.`,
    });
  };

  return (
    <tr className={active ? undefined : 'team-row-off'}>
      <td className="cell-main">
        <span className="team-name">
          {name}
          {me ? <span className="badge badge-accent team-you">you</span> : null}
        </span>
        <span className="team-sub">{account.email}</span>
      </td>
      <td data-label="Role">
        <select
          className="team-role"
          aria-label={me ? 'Your role' : `Role of ${name}`}
          value={account.role}
          disabled={changingRole}
          aria-busy={changingRole}
          onChange={(event) => onRoleChange(event.target.value as Role)}
        >
          {ROLES_IN_ORDER.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </select>
      </td>
      <td data-label="Status">{active ? <span className="badge badge-ok">Active</span> : <span className="badge badge-muted">Deactivated</span>}</td>
      <td data-label="Last sign-in">
        <span title={account.lastSignInAt ? formatWhen(account.lastSignInAt) : undefined}>{formatLastVisit(account.lastSignInAt)}</span>
      </td>
      <td data-label="Sessions" className="num">
        {account.openSessions}
      </td>
      <td className="actions">
        {me ? (
          <AppLink to={paths.account} className="btn btn-small">
            Your account
          </AppLink>
        ) : (
          <span className="team-actions">
            <button type="button" className="btn btn-small" onClick={openResetLink} aria-label={`Reset link for ${name}`}>
              <Icon name="key" size={16} /> Reset link
            </button>
            {active ? (
              <button type="button" className="btn btn-small" onClick={openDeactivate} aria-label={`Deactivate ${name}`}>
                Deactivate
              </button>
            ) : (
              <AsyncButton run={reactivate} pendingLabel="Reactivating…" aria-label={`Reactivate ${name}`}>
                Reactivate
              </AsyncButton>
            )}
            <button type="button" className="icon-button danger-hover" onClick={openDelete} aria-label={`Delete ${name}`}>
              <Icon name="trash" size={18} />
            </button>
          </span>
        )}
      </td>
    </tr>
  );
}

function Invitations({ invitations, onInvite }: { invitations: Invitation[]; onInvite: () => void }) {
  const toast = useToast();
  if (invitations.length === 0) {
    return (
      <EmptyState icon="link" title="No open invitations">
        An invitation shows here until it is answered, withdrawn or runs out.{' '}
        <button type="button" className="link-button" onClick={onInvite}>
          Invite someone
        </button>
      </EmptyState>
    );
  }
  const withdraw = async (invitation: Invitation) => {
    try {
      await withdrawInvitation({ params: { id: invitation.id } });
      toast.show({ tone: 'success', message: `The invitation for ${invitation.email} is withdrawn: its link no longer works.` });
    } catch (error) {
      toast.show({ tone: 'error', title: `Could not withdraw the invitation for ${invitation.email}`, message: errorMessage(error) });
    }
  };
  return (
    <div className="team-table-box">
      <table className="team-table" aria-label="Open invitations">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Valid until</th>
            <th scope="col">Invited by</th>
            <th scope="col" className="actions">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {invitations.map((invitation) => (
            <tr key={invitation.id}>
              <td className="cell-main">
                <span className="team-name">{invitation.email}</span>
              </td>
              <td data-label="Role">{ROLE_LABELS[invitation.role]}</td>
              <td data-label="Valid until">{formatWhen(invitation.expiresAt)}</td>
              <td data-label="Invited by">{invitation.invitedBy ?? <span className="muted">—</span>}</td>
              <td className="actions">
                <AsyncButton run={() => withdraw(invitation)} pendingLabel="Withdrawing…" aria-label={`Withdraw the invitation for ${invitation.email}`}>
                  Withdraw
                </AsyncButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Component() {
  const { team } = reads.useReads();
  const me = useShellUser();
  const modal = useModal();
  const [notice, setNotice] = useState<Notice>();
  const { accounts, invitations } = team;
  const activeCount = accounts.filter((a) => a.status === 'active').length;

  const openInvite = () =>
    modal.open({
      title: 'Invite someone',
      description: 'A one-use link: they open it, choose their name and password, and start on their role’s first page.',
      content: (close) => <InviteForm onClose={close} />,
    });

  return (
    <div className="stack-lg team">
      <PageHeader
        eyebrow="Admin"
        title="Team"
        actions={
          <button type="button" className="btn btn-primary" onClick={openInvite}>
            <Icon name="plus" size={18} /> Invite someone
          </button>
        }
      >
        <p>
          Who can sign in, with which role. {accounts.length} account{accounts.length === 1 ? '' : 's'}, {activeCount} active.
        </p>
      </PageHeader>

      {notice ? (
        <div className="banner banner-danger team-notice" role="alert">
          <p>
            <strong>{notice.title}.</strong> {notice.detail}
          </p>
          <button type="button" className="icon-button" onClick={() => setNotice(undefined)} aria-label="Dismiss">
            <Icon name="close" size={18} />
          </button>
        </div>
      ) : null}

      <section aria-labelledby="accounts-title" className="stack">
        <h2 id="accounts-title" className="section-title">
          Accounts
        </h2>
        <div className="team-table-box">
          <table className="team-table" aria-label="Accounts">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Status</th>
                <th scope="col">Last sign-in</th>
                <th scope="col" className="num">
                  Sessions
                </th>
                <th scope="col" className="actions">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {accounts.map((account) => (
                <AccountRow key={account.id} account={account} me={account.id === me.id} onRefused={setNotice} />
              ))}
            </tbody>
          </table>
        </div>
        {accounts.length <= 1 ? <p className="muted">Only you so far. Invite the people you work with: each gets a link to set their own password.</p> : null}
      </section>

      <section aria-labelledby="invitations-title" className="stack">
        <h2 id="invitations-title" className="section-title">
          Open invitations
        </h2>
        <Invitations invitations={invitations} onInvite={openInvite} />
      </section>
    </div>
  );
}
