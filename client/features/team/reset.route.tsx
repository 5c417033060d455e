import './team.css';
import { useNavigate } from 'react-router';
import { PasswordField } from '@/components/password-field';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { formatWhen } from '@/lib/format';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { EmailText } from './components/email-text';
import { LinkCard, LinkProblem, PreviewPending, useLinkPreview, useLinkToken } from './components/link-page';
import { firstPageFor, previewReset, setPasswordByLink } from './team.api';

/**
 * `/reset#<secret>` (public): a password reset link an admin made. The person chooses a new
 * password; their other sessions end and this browser is signed in, on their first page.
 */
export const handle = { title: 'Choose a new password' };

const TITLE = 'Choose a new password';

const askReset = (token: string) => previewReset({ body: { token } });
type ResetPreview = Awaited<ReturnType<typeof askReset>>;

function ResetForm({ token, account, onGone }: { token: string; account: ResetPreview; onGone: () => void }) {
  const navigate = useNavigate();
  const toast = useToast();
  const form = useForm({
    schema: setPasswordByLink.endpoint.body,
    initial: { password: '' },
    toInput: (values) => ({ token, password: values.password }),
    send: async (body) => {
      const { user } = await setPasswordByLink({ body });
      toast.show({ tone: 'success', message: 'Your password is changed; your other sessions have ended.' });
      await navigate(firstPageFor(user.role), { replace: true });
    },
    failed: (error) => {
      if (isApiError(error, 404)) onGone();
      if (isApiError(error, 429)) return { fields: {}, form: errorMessage(error) };
      return formErrors(error, ['password'] as const);
    },
  });
  return (
    <LinkCard title={TITLE} lede={`For ${account.name || account.email}. Once it is set, you are signed in here and signed out everywhere else.`}>
      <dl className="facts">
        <div>
          <dt>Account</dt>
          <dd>
            <EmailText email={account.email} />
          </dd>
        </div>
        <div>
          <dt>Link valid until</dt>
          <dd>{formatWhen(account.expiresAt)}</dd>
        </div>
      </dl>
      <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="form" aria-busy={form.pending}>
        {form.errors.form ? (
          <div className="banner banner-danger" role="alert" tabIndex={-1}>
            {form.errors.form}
          </div>
        ) : null}
        {/* The account's email, for a password manager to update the right entry. */}
        <input type="email" name="username" autoComplete="username" value={account.email} readOnly hidden />
        <PasswordField label="New password" name="password" autoComplete="new-password" required hint="At least 12 characters. A few words you remember make a good one." {...form.field('password')} />
        <button type="submit" className="btn btn-primary btn-block" disabled={form.pending} aria-busy={form.pending}>
          {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
          {form.pending ? 'Saving…' : 'Set the password and sign in'}
        </button>
      </form>
    </LinkCard>
  );
}

export function Component() {
  const token = useLinkToken();
  const { preview, retry, unusable } = useLinkPreview(token, askReset);
  if (preview.state === 'unusable') return <LinkProblem why={preview.why} pageTitle={TITLE} />;
  if (preview.state !== 'ready') return <PreviewPending preview={preview} retry={retry} pageTitle={TITLE} />;
  return <ResetForm token={token} account={preview.preview} onGone={() => unusable('gone')} />;
}
