import './team.css';
import { useNavigate } from 'react-router';
import { TextField } from '@/components/form-fields';
import { PasswordField } from '@/components/password-field';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatWhen } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { useRead } from '@/lib/reads';
import { sessionRead } from '@/lib/session';
import { EmailText } from './components/email-text';
import { LinkCard, LinkProblem, PreviewPending, useLinkPreview, useLinkToken } from './components/link-page';
import { AS_ROLE, ROLE_HINTS, ROLE_LABELS, acceptInvitation, firstPageFor, previewInvitation } from './team.api';

/**
 * `/join#<secret>` (public): an invitation link. The invitee sees what they are invited as, chooses
 * their name and password, and lands signed in on their role's first page.
 */
export const handle = { title: 'Join Frontdesk' };

const TITLE = 'Join Frontdesk';

const askInvitation = (token: string) => previewInvitation({ body: { token } });
type InvitationPreview = Awaited<ReturnType<typeof askInvitation>>;

function JoinForm({ token, invitation, onGone }: { token: string; invitation: InvitationPreview; onGone: () => void }) {
  const navigate = useNavigate();
  const { data: signedIn } = useRead(sessionRead);
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
        <TextField label="Your name" name="name" autoComplete="name" required hint="As the team will see it: in the chat, the audit trail, the header." {...form.field('name')} />
        <PasswordField label="Password" name="password" autoComplete="new-password" required hint="At least 12 characters. A few words you remember make a good one." {...form.field('password')} />
        <button type="submit" className="btn btn-primary btn-block" disabled={form.pending} aria-busy={form.pending}>
          {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
          {form.pending ? 'Joining…' : 'Join and sign in'}
        </button>
      </form>
      {/* Joining with a passkey instead of a password goes here, once passkeys can be created without an account. */}
    </LinkCard>
  );
}

export function Component() {
  const token = useLinkToken();
  const { preview, retry, unusable } = useLinkPreview(token, askInvitation);
  if (preview.state === 'unusable') return <LinkProblem why={preview.why} pageTitle={TITLE} />;
  if (preview.state !== 'ready') return <PreviewPending preview={preview} retry={retry} pageTitle={TITLE} />;
  return <JoinForm token={token} invitation={preview.preview} onGone={() => unusable('gone')} />;
}
