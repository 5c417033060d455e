import { useEffect, useRef } from 'react';
import { useLoaderData, useNavigate } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { loginApi } from '@contracts/login.contract';
import { TextField } from '@/components/form-fields';
import { errorMessage, isApiError } from '@/lib/api-client';
import { setQueryData, useRead } from '@/lib/reads';
import { write } from '@/lib/endpoint-write';
import { useForm } from '@/lib/form-state';
import { formErrors } from '@/lib/problem-fields';
import { LoginSearchSchema, parseSearch } from '@pages/search-params';
import type { LoginSearch } from '@pages/search-params';
import { afterPaint } from '@/lib/after-paint';
import { AppLink } from '@/lib/app-link';
import { safeRedirect } from '@/lib/paths';
import { SESSION_KEY, announceSignIn, sessionRead } from '@/lib/session';

/**
 * Signing in is a write like any other (docs/decisions/0001-one-way-to-write.md): the user it
 * answers goes into the session's cache entry, so the header shows them on the next screen. It lives
 * here, not in lib/session, so the app's first screen does not carry the login form's checks.
 */
const signIn = write(loginApi.login, {
  apply: ({ user }) => {
    setQueryData(SESSION_KEY, user);
    announceSignIn();
  },
});

/** Why sign-in failed, in words: the server's field messages on their fields, the rest above the form. */
function signInFailed(error: unknown) {
  if (isApiError(error, 401)) return { fields: {}, form: 'Wrong email or password.' };
  if (isApiError(error, 429)) return { fields: {}, form: error.problem?.detail ?? 'Too many attempts. Wait a minute, then try again.' };
  if (isApiError(error, 400)) return formErrors(error, ['email', 'password'] as const);
  return { fields: {}, form: `Could not sign in: ${errorMessage(error)}` };
}

const isTypingIn = (element: Element | null) => element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;

export function loader({ request }: LoaderFunctionArgs): LoginSearch {
  return parseSearch(LoginSearchSchema, new URL(request.url).searchParams);
}

export const handle = { title: 'Sign in' };

export function Component() {
  const { flash, redirect } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { data: user } = useRead(sessionRead);
  const form = useForm({
    schema: signIn.endpoint.body,
    initial: { email: '', password: '' },
    toInput: (values) => values,
    send: async (body) => {
      await signIn({ body });
      await navigate(safeRedirect(redirect), { replace: true });
    },
    failed: signInFailed,
    clearOnFailure: ['password'],
  });
  // The email box takes the focus once the page has painted, unless the person is already typing in
  // a field. (autoFocus focuses as React commits, which lays the page out inside the first render's
  // task: 36 ms of the 55 this page's first render took, traced in Chromium.) The main region, where
  // the root layout puts the focus after a navigation, gives it up.
  const email = useRef<HTMLInputElement>(null);
  useEffect(
    () =>
      afterPaint(() => {
        if (!isTypingIn(document.activeElement)) email.current?.focus();
      }),
    [],
  );

  return (
    <div className="auth-page">
      <section className="card auth-card" aria-labelledby="login-title">
        <span className="brand-mark brand-mark-lg" aria-hidden="true">
          F
        </span>
        <h1 id="login-title">Sign in to Frontdesk</h1>
        <p className="muted">Staff pages need your account.</p>

        {flash ? (
          <div className="banner banner-info" role="status">
            {flash}
          </div>
        ) : null}
        {user ? (
          <div className="banner banner-info" role="status">
            You are signed in as {user.name}. <AppLink to="/shell">Go to the staff shell</AppLink> or sign in as someone else.
          </div>
        ) : null}

        <form ref={form.ref} onSubmit={form.onSubmit} noValidate className="form" aria-busy={form.pending}>
          {form.errors.form ? (
            <div className="banner banner-danger" role="alert" tabIndex={-1}>
              {form.errors.form}
            </div>
          ) : null}
          <TextField label="Email" name="email" type="email" autoComplete="username" inputMode="email" required ref={email} {...form.field('email')} />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required {...form.field('password')} />
          <button type="submit" className="btn btn-primary btn-block" disabled={form.pending} aria-busy={form.pending}>
            {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
            {form.pending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </section>
    </div>
  );
}
