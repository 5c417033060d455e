import './login.css';
import { useEffect, useRef, useState } from 'react';
import { useLoaderData, useNavigate } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { AuthResponse } from '@contracts/auth.contract';
import { loginApi } from '@contracts/login.contract';
import { TextField } from '@/components/form-fields';
import { Icon } from '@/components/icon';
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
import { cancelPasskeyRequest, passkeyAutofillSupported, passkeyRequestReplaced, passkeysSupported } from '@/lib/passkeys';

/**
 * Signing in is a write like any other (docs/decisions/0001-one-way-to-write.md): the user it
 * answers goes into the session's cache entry, so the header shows them on the next screen. It lives
 * here, not in lib/session, so the app's first screen does not carry the login form's checks.
 */
const signedIn = {
  apply: ({ user }: AuthResponse) => {
    setQueryData(SESSION_KEY, user);
    announceSignIn();
  },
};
const signIn = write(loginApi.login, signedIn);
/** Signing in with a passkey: its own chunk, fetched once the page has painted (its contract and the WebAuthn library with it). */
const passkeySignIn = () => import('./passkey-sign-in');

const DEACTIVATED = 'This account is deactivated: ask an admin to reactivate it.';

/** Why sign-in failed, in words: the server's field messages on their fields, the rest above the form. */
function signInFailed(error: unknown) {
  if (isApiError(error, 401)) return { fields: {}, form: 'Wrong email or password.' };
  if (isApiError(error, 429)) return { fields: {}, form: error.problem?.detail ?? 'Too many attempts. Wait a minute, then try again.' };
  // The right password of a deactivated account: said only to whoever knows the password.
  if (isApiError(error, 403)) return { fields: {}, form: error.problem?.detail ?? DEACTIVATED };
  if (isApiError(error, 400)) return formErrors(error, ['email', 'password'] as const);
  return { fields: {}, form: `Could not sign in: ${errorMessage(error)}` };
}

const isTypingIn = (element: Element | null) => element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement;

export function loader({ request }: LoaderFunctionArgs): LoginSearch {
  return parseSearch(LoginSearchSchema, new URL(request.url).searchParams);
}

export const handle = { title: 'Sign in' };

/**
 * Passkeys on the login page: offered among the email box's suggestions (the browser's autofill, from
 * once the page has painted), and by a button for browsers without that or people who look for it.
 * A passkey signs in on its own: no email, no password, and none of the password limits.
 */
function usePasskeySignIn(signedIn: () => unknown) {
  const [problem, setProblem] = useState<string>();
  const [pending, setPending] = useState(false);
  // The page is still here (a late answer does nothing after it went), and whether a request was started (to cancel it then).
  const mounted = useRef(true);
  const started = useRef(false);

  /** Asks for a challenge, lets the person pick a passkey (in the prompt, or among the suggestions), signs in with it. */
  const attempt = async (autofill: boolean) => {
    const { signInWithPasskey } = await passkeySignIn();
    started.current = true;
    await signInWithPasskey({
      autofill,
      picked: () => {
        setPending(true);
        setProblem(undefined);
      },
    });
    await signedIn();
  };

  const offerInSuggestions = async () => {
    if (!mounted.current || !(await passkeyAutofillSupported())) return;
    try {
      await attempt(true);
    } catch (error) {
      if (!mounted.current || passkeyRequestReplaced(error)) return;
      setPending(false);
      // Said only once the person picked one: before that, nothing they did failed (the challenge not fetched, the browser's own error).
      if (error instanceof Error && error.name === 'PasskeyRefused') {
        setProblem(error.message);
        void offerInSuggestions();
      }
    }
  };

  useEffect(() => {
    mounted.current = true;
    const cancel = afterPaint(() => void offerInSuggestions());
    return () => {
      mounted.current = false;
      cancel();
      if (started.current) void cancelPasskeyRequest();
    };
    // Once per visit of the page: the suggestions wait as long as it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const withButton = async () => {
    if (pending) return;
    setProblem(undefined);
    setPending(true);
    try {
      await attempt(false);
    } catch (error) {
      if (!mounted.current) return;
      setPending(false);
      setProblem(await passkeySignIn().then(({ passkeyFailed }) => passkeyFailed(error), () => `Could not sign in: ${errorMessage(error)}`));
      // The button's request ended the one waiting in the suggestions: offer them again.
      void offerInSuggestions();
    }
  };

  return { problem, pending, withButton, supported: passkeysSupported() };
}

export function Component() {
  const { flash, redirect } = useLoaderData<typeof loader>();
  const navigate = useNavigate();
  const { data: user } = useRead(sessionRead);
  const passkey = usePasskeySignIn(() => navigate(safeRedirect(redirect), { replace: true }));
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
          {/* "webauthn": the browser offers this site's passkeys among the box's suggestions. */}
          <TextField label="Email" name="email" type="email" autoComplete="username webauthn" inputMode="email" required ref={email} {...form.field('email')} />
          <TextField label="Password" name="password" type="password" autoComplete="current-password" required {...form.field('password')} />
          <button type="submit" className="btn btn-primary btn-block" disabled={form.pending} aria-busy={form.pending}>
            {form.pending ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
            {form.pending ? 'Signing in…' : 'Sign in'}
          </button>
        </form>

        {passkey.supported ? (
          <div className="passkey-sign-in">
            <p className="auth-or" aria-hidden="true">
              or
            </p>
            {passkey.problem ? (
              <div className="banner banner-danger" role="alert">
                {passkey.problem}
              </div>
            ) : null}
            <button type="button" className="btn btn-block" onClick={() => void passkey.withButton()} aria-disabled={passkey.pending || undefined} aria-busy={passkey.pending}>
              {passkey.pending ? <span className="spinner" aria-hidden="true" /> : <Icon name="key" size={18} />}
              {passkey.pending ? 'Signing in…' : 'Sign in with a passkey'}
            </button>
          </div>
        ) : null}
      </section>
    </div>
  );
}
