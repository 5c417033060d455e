import './account.css';
import { useState } from 'react';
import { useRevalidator } from 'react-router';
import * as v from 'valibot';
import { accountApi, type OwnAccount, type OwnSession } from '@contracts/account.contract';
import { accountPageReads } from '@pages/team.reads';
import { AsyncButton } from '@/components/async-button';
import { ConfirmDelete } from '@/components/confirm-delete';
import { TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { useModal } from '@/components/modal-host';
import { PageHeader } from '@/components/page-header';
import { PasswordField } from '@/components/password-field';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { byInstant, formatDate, formatLastVisit, formatWhen } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { invalidate } from '@/lib/reads';
import { routeReads } from '@/lib/route-reads';
import { PasskeysSection } from './passkeys-section';
import { changeName, changePassword, endOtherSessions, endSession } from './account.api';

/** `/shell/account` (anyone signed in): your name and password, where you are signed in, your passkeys. */
const reads = routeReads(accountPageReads);
export const { loader } = reads;
export const handle = { title: 'Your account', ...reads.handle };

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The name, changed in place: the header and the shell's greeting follow at once. */
function NameForm({ account }: { account: OwnAccount }) {
  const toast = useToast();
  const revalidator = useRevalidator();
  const [round, setRound] = useState(0);
  const onSaved = (name: string) => {
    setRound((n) => n + 1);
    toast.show({ tone: 'success', message: `Your name is now ${name}.` });
    // The shell's greeting reads the signed-in user from its loader: it reads the session again.
    void revalidator.revalidate();
  };
  return <NameFormRound key={round} account={account} onSaved={onSaved} />;
}

function NameFormRound({ account, onSaved }: { account: OwnAccount; onSaved: (name: string) => void }) {
  const form = useForm({
    schema: changeName.endpoint.body,
    initial: { name: account.name },
    toInput: (values) => values,
    send: async (body) => {
      const user = await changeName({ body });
      onSaved(user.name);
    },
  });
  const unchanged = form.values.name.trim() === account.name;
  return (
    <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="form account-name-form" aria-busy={form.pending}>
      {form.errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {form.errors.form}
        </div>
      ) : null}
      <div className="account-inline">
        <TextField label="Name" name="name" autoComplete="name" hint="As the team sees it: the header, the chat, the audit trail." {...form.field('name')} />
        <button type="submit" className="btn btn-primary" disabled={form.pending || unchanged} aria-busy={form.pending}>
          {form.pending ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** The password form also checks the repeat; the repeat stays in the page, the body is the contract's. */
const passwordSchema = v.pipe(
  v.object({ ...changePassword.endpoint.body.entries, repeat: v.string() }),
  v.forward(
    v.partialCheck([['newPassword'], ['repeat']], (input) => input.newPassword === input.repeat, 'The two new passwords differ: type the same one twice'),
    ['repeat'],
  ),
);

function PasswordForm({ hasPassword, onChanged }: { hasPassword: boolean; onChanged: (ended: number) => void }) {
  const form = useForm({
    schema: passwordSchema,
    initial: { currentPassword: '', newPassword: '', repeat: '' },
    toInput: (values) => ({ currentPassword: hasPassword ? values.currentPassword : undefined, newPassword: values.newPassword, repeat: values.repeat }),
    send: async ({ currentPassword, newPassword }) => {
      const { ended } = await changePassword({ body: { currentPassword, newPassword } });
      onChanged(ended);
    },
    clearOnFailure: ['currentPassword'],
  });
  return (
    <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="form" aria-busy={form.pending} aria-label="Change your password">
      {form.errors.form ? (
        <div className="banner banner-danger" role="alert" tabIndex={-1}>
          {form.errors.form}
        </div>
      ) : null}
      {hasPassword ? (
        <PasswordField label="Current password" name="current-password" autoComplete="current-password" {...form.field('currentPassword')} />
      ) : (
        <p className="muted">You joined with a passkey: choose a password to sign in with one too.</p>
      )}
      <PasswordField label="New password" name="new-password" autoComplete="new-password" hint="At least 12 characters." {...form.field('newPassword')} />
      <PasswordField label="New password again" name="repeat-password" autoComplete="new-password" {...form.field('repeat')} />
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={form.pending} aria-busy={form.pending}>
          {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
          {form.pending ? 'Changing…' : hasPassword ? 'Change password' : 'Set password'}
        </button>
      </div>
    </form>
  );
}

function PasswordCard({ account }: { account: OwnAccount }) {
  const toast = useToast();
  const [round, setRound] = useState(0);
  const onChanged = (ended: number) => {
    setRound((n) => n + 1);
    toast.show({ tone: 'success', message: `Your password is changed${ended ? `; ${plural(ended, 'other session')} ended` : ''}.` });
  };
  return (
    <section className="card" aria-labelledby="password-title">
      <h2 id="password-title" className="card-heading">
        <Icon name="lock" /> Password
      </h2>
      <p className="muted">Changing it signs you out everywhere else; this browser stays signed in.</p>
      <PasswordForm key={round} hasPassword={account.hasPassword} onChanged={onChanged} />
    </section>
  );
}

function SessionRow({ session }: { session: OwnSession }) {
  const toast = useToast();
  const end = async () => {
    try {
      await endSession({ params: { id: session.id } });
      toast.show({ tone: 'success', message: `Signed out of ${session.browser}.` });
    } catch (error) {
      if (isApiError(error, 404)) {
        await invalidate(accountApi.get);
        return void toast.show({ tone: 'info', message: `${session.browser} was signed out already.` });
      }
      toast.show({ tone: 'error', title: 'Could not sign out that session', message: errorMessage(error) });
    }
  };
  return (
    <li className="account-session">
      <span className="account-session-icon" aria-hidden="true">
        <Icon name={session.current ? 'check' : 'server'} size={18} />
      </span>
      <div className="account-session-main">
        <span className="account-session-browser">
          {session.browser}
          {session.current ? <span className="badge badge-ok">This browser</span> : null}
        </span>
        <span className="account-session-sub">
          {session.address} · signed in {formatWhen(session.signedInAt)} · last seen <span title={formatWhen(session.lastSeenAt)}>{formatLastVisit(session.lastSeenAt)}</span>
        </span>
      </div>
      {session.current ? null : (
        <AsyncButton run={end} pendingLabel="Signing out…" aria-label={`Sign out ${session.browser} (${session.address})`}>
          Sign out
        </AsyncButton>
      )}
    </li>
  );
}

function SessionsCard({ sessions }: { sessions: OwnSession[] }) {
  const modal = useModal();
  const toast = useToast();
  const others = sessions.filter((s) => !s.current).length;
  // This browser first, then the others by their last request, newest first.
  const shown = [...sessions].sort((a, b) => Number(b.current) - Number(a.current) || byInstant(b.lastSeenAt, a.lastSeenAt));
  const openEndOthers = () =>
    modal.open({
      title: 'Sign out everywhere else?',
      content: (close) => (
        <ConfirmDelete
          confirmLabel="Sign out everywhere else"
          pendingLabel="Signing out…"
          onCancel={close}
          onConfirm={async () => {
            const { ended } = await endOtherSessions();
            toast.show({ tone: 'success', message: ended ? `Signed out of ${plural(ended, 'other session')}.` : 'No other session was open.' });
            close();
          }}
        >
          <p>
            Your {plural(others, 'other session')} end{others === 1 ? 's' : ''} at once: those browsers need your password or passkey to come back. This browser stays signed in.
          </p>
        </ConfirmDelete>
      ),
    });
  return (
    <section className="card stack" aria-labelledby="sessions-title">
      <div className="card-head">
        <h2 id="sessions-title" className="card-heading">
          <Icon name="activity" /> Where you are signed in
        </h2>
        {others > 0 ? (
          <button type="button" className="btn btn-small" onClick={openEndOthers}>
            <Icon name="logout" size={16} /> Sign out everywhere else
          </button>
        ) : null}
      </div>
      <ul className="account-sessions" aria-label="Your sessions">
        {shown.map((session) => (
          <SessionRow key={session.id} session={session} />
        ))}
      </ul>
      {others === 0 ? <p className="muted small">Only this browser. If you sign in elsewhere it shows here, and you can sign it out from here.</p> : null}
    </section>
  );
}

export function Component() {
  const { account } = reads.useReads();
  return (
    <div className="stack-lg account">
      <PageHeader eyebrow="Staff shell" title="Your account">
        <p>Your name, your password, and the browsers where you are signed in.</p>
      </PageHeader>
      <div className="account-grid">
        <div className="stack-lg">
          <section className="card" aria-labelledby="profile-title">
            <h2 id="profile-title" className="card-heading">
              <Icon name="user" /> Profile
            </h2>
            <NameForm account={account} />
            <dl className="facts">
              <div>
                <dt>Email</dt>
                <dd>{account.email}</dd>
              </div>
              <div>
                <dt>Role</dt>
                <dd>
                  <span className="badge badge-accent">{account.role}</span>
                </dd>
              </div>
              <div>
                <dt>Member since</dt>
                <dd>{formatDate(account.createdAt)}</dd>
              </div>
            </dl>
            <p className="muted small account-note">Only an admin changes an email or a role.</p>
          </section>
          <PasswordCard account={account} />
        </div>
        <div className="stack-lg">
          <SessionsCard sessions={account.sessions} />
          <PasskeysSection passkeys={account.passkeys} hasPassword={account.hasPassword} />
        </div>
      </div>
    </div>
  );
}
