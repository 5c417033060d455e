import './team.css';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import * as v from 'valibot';
import { TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
import { PasswordField } from '@/components/password-field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatWhen } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { createPasskey, passkeyPromptMessage, passkeysSupported, suggestedName } from '@/lib/passkeys';
import { formErrors } from '@/lib/problem-fields';
import { useRead } from '@/lib/reads';
import { sessionRead } from '@/lib/session';
import { EmailText } from './components/email-text';
import { LinkCard, LinkProblem, PreviewPending, useLinkPreview, useLinkToken } from './components/link-page';
import { AS_ROLE, ROLE_HINTS, ROLE_LABELS, acceptInvitation, acceptInvitationWithPasskey, firstPageFor, invitationPasskeyOptions, previewInvitation } from './team.api';

/**
 * `/join#<secret>` (public): an invitation link. The invitee sees what they are invited as, chooses
 * their name and a password or a passkey, and lands signed in on their role's first page.
 */
export const handle = { title: 'Join Frontdesk' };

const TITLE = 'Join Frontdesk';

const askInvitation = (token: string) => previewInvitation({ body: { token } });
type InvitationPreview = Awaited<ReturnType<typeof askInvitation>>;

function JoinForm({ token, invitation, onGone }: { token: string; invitation: InvitationPreview; onGone: () => void }) {
  const navigate = useNavigate();
  const { data: signedIn } = useRead(sessionRead);
  // The name field serves both ways in: the passkey button's own check of it shows here too.
  const nameInput = useRef<HTMLInputElement>(null);
  const [nameProblem, setNameProblem] = useState<string>();
  const form = useForm({
    schema: acceptInvitation.endpoint.body,
    initial: { name: '', password: '' },
    toInput: (values) => ({ token, name: values.name, password: values.password }),
    send: async (body) => {
      const { user } = await acceptInvitation({ body });
      await navigate(firstPageFor(user.role), { replace: true });
    },
    failed: (error) => {
      if (isApiError(error, 404)) onGone();
      if (isApiError(error, 409) || isApiError(error, 429)) return { fields: {}, form: errorMessage(error) };
      return formErrors(error, ['name', 'password'] as const);
    },
  });
  const role = invitation.role;
  const name = form.field('name');
  return (
    <LinkCard title={TITLE} lede={`You are invited to join the team as ${AS_ROLE[role]}.`}>
      <dl className="facts">
        <div>
          <dt>Email</dt>
          <dd>
            <EmailText email={invitation.email} />
          </dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>{ROLE_LABELS[role]}</dd>
        </div>
        <div>
          <dt>Link valid until</dt>
          <dd>{formatWhen(invitation.expiresAt)}</dd>
        </div>
      </dl>
      <p className="muted small">{ROLE_HINTS[role]}</p>
      {signedIn ? (
        <div className="banner banner-info" role="status">
          This browser is signed in as {signedIn.name || signedIn.email}: joining signs it in as {invitation.email} instead.
        </div>
      ) : null}
      <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="form" aria-busy={form.pending}>
        {form.errors.form ? (
          <div className="banner banner-danger" role="alert" tabIndex={-1}>
            {form.errors.form}
          </div>
        ) : null}
        {/* The account's email, for a password manager to save the new password under (not shown: it is above). */}
        <input type="email" name="username" autoComplete="username" value={invitation.email} readOnly hidden />
        <TextField
          label="Your name"
          name="name"
          autoComplete="name"
          required
          hint="As the team will see it: in the chat, the audit trail, the header."
          ref={nameInput}
          {...name}
          error={name.error ?? nameProblem}
          onChange={(event) => {
            setNameProblem(undefined);
            name.onChange(event);
          }}
        />
        <PasswordField label="Password" name="password" autoComplete="new-password" required hint="At least 12 characters. A few words you remember make a good one." {...form.field('password')} />
        <button type="submit" className="btn btn-primary btn-block" disabled={form.pending} aria-busy={form.pending}>
          {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
          {form.pending ? 'Joining…' : 'Join and sign in'}
        </button>
      </form>
      {passkeysSupported() ? (
        <JoinWithPasskey
          token={token}
          name={form.values.name}
          onNameProblem={(message) => {
            setNameProblem(message);
            nameInput.current?.focus();
          }}
          onGone={onGone}
        />
      ) : null}
    </LinkCard>
  );
}

/**
 * Joining with a passkey instead of a password: the name typed above, then the browser's prompt to
 * create a passkey for the invited email (the WebAuthn library loads on the first press), then the
 * account is made with it and this browser signed in, as with a password. No password is set; the
 * account page offers one later.
 */
function JoinWithPasskey({ token, name, onNameProblem, onGone }: { token: string; name: string; onNameProblem: (message: string) => void; onGone: () => void }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);
  const [problem, setProblem] = useState<string>();

  const join = async () => {
    if (pending) return;
    setProblem(undefined);
    const checked = v.safeParse(invitationPasskeyOptions.endpoint.body, { token, name });
    if (!checked.success) {
      const issue = checked.issues[0];
      return v.getDotPath(issue) === 'name' ? onNameProblem(issue.message) : setProblem(issue.message);
    }
    setPending(true);
    // Whose words a failure needs: the server's (a problem's detail) or the browser's prompt's.
    let inBrowser = false;
    try {
      const options = await invitationPasskeyOptions({ body: checked.output });
      inBrowser = true;
      const response = await createPasskey(options);
      inBrowser = false;
      const { user } = await acceptInvitationWithPasskey({ body: { ...checked.output, passkey: { name: suggestedName(response), response } } });
      await navigate(firstPageFor(user.role), { replace: true });
    } catch (error) {
      setPending(false);
      if (isApiError(error, 404)) return onGone();
      setProblem(inBrowser ? passkeyPromptMessage(error, 'add') : errorMessage(error));
    }
  };

  return (
    <div className="join-passkey">
      <p className="join-or" aria-hidden="true">
        or
      </p>
      {problem ? (
        <div className="banner banner-danger" role="alert">
          {problem}
        </div>
      ) : null}
      <button type="button" className="btn btn-block" onClick={() => void join()} aria-disabled={pending || undefined} aria-busy={pending} aria-describedby="join-passkey-hint">
        {pending ? <span className="spinner" aria-hidden="true" /> : <Icon name="key" size={18} />}
        {pending ? 'Waiting for your device…' : 'Join with a passkey'}
      </button>
      <p id="join-passkey-hint" className="muted small">
        No password to remember: your fingerprint, face or screen lock signs you in. Enter your name first.
      </p>
    </div>
  );
}

export function Component() {
  const token = useLinkToken();
  const { preview, retry, unusable } = useLinkPreview(token, askInvitation);
  if (preview.state === 'unusable') return <LinkProblem why={preview.why} pageTitle={TITLE} />;
  if (preview.state !== 'ready') return <PreviewPending preview={preview} retry={retry} pageTitle={TITLE} />;
  return <JoinForm token={token} invitation={preview.preview} onGone={() => unusable('gone')} />;
}
