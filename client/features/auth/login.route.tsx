import { useEffect, useRef } from 'react';
import { Form, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import type { ActionFunctionArgs, LoaderFunctionArgs } from 'react-router';
import { loginApi, type SessionUser } from '@contracts/auth.contract';
import { call, errorMessage, isApiError } from '@/lib/api-client';
import { setQueryData, useQuery } from '@/lib/cache';
import { LoginSearchSchema, parseSearch } from '@/lib/search-params';
import type { LoginSearch } from '@/lib/search-params';
import { AppLink } from '@/lib/app-link';
import { safeRedirect } from '@/lib/paths';
import { SESSION_KEY, fetchSession } from '@/lib/session';

type Field = 'email' | 'password';
export type LoginResult = { email: string; formError?: string; fieldErrors?: Partial<Record<Field, string>> };

async function signIn(email: string, password: string): Promise<SessionUser> {
  const { user } = await call(loginApi.login, { body: { email, password } });
  setQueryData(SESSION_KEY, user);
  return user;
}

export function loader({ request }: LoaderFunctionArgs): LoginSearch {
  return parseSearch(LoginSearchSchema, new URL(request.url));
}

export async function action({ request }: ActionFunctionArgs): Promise<LoginResult | Response> {
  const { redirect: wanted } = parseSearch(LoginSearchSchema, new URL(request.url));
  const form = await request.formData();
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const fieldErrors: Partial<Record<Field, string>> = {};
  if (!email) fieldErrors.email = 'Enter your email address.';
  if (!password) fieldErrors.password = 'Enter your password.';
  if (fieldErrors.email || fieldErrors.password) return { email, fieldErrors };
  try {
    await signIn(email, password);
  } catch (error) {
    if (isApiError(error, 401)) return { email, formError: 'Wrong email or password.' };
    if (isApiError(error, 429)) return { email, formError: error.problem?.detail ?? 'Too many attempts. Wait a minute, then try again.' };
    if (isApiError(error, 400) && error.problem?.errors?.length) {
      for (const { path, message } of error.problem.errors) {
        const field = path.replace(/^\/?(body\.|body\/)?/, '') as Field;
        if (field === 'email' || field === 'password') fieldErrors[field] = message;
      }
      return { email, fieldErrors, formError: fieldErrors.email || fieldErrors.password ? undefined : errorMessage(error) };
    }
    return { email, formError: `Could not sign in: ${errorMessage(error)}` };
  }
  return redirect(safeRedirect(wanted));
}

export const handle = { title: 'Sign in' };

export function Component() {
  const { flash } = useLoaderData<typeof loader>();
  const result = useActionData() as LoginResult | undefined;
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod?.toUpperCase() === 'POST';
  const { data: user } = useQuery(SESSION_KEY, fetchSession);
  const errorRef = useRef<HTMLDivElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!result) return;
    if (result.fieldErrors?.email) emailRef.current?.focus();
    else if (result.fieldErrors?.password) passwordRef.current?.focus();
    else if (result.formError) {
      errorRef.current?.focus();
      if (passwordRef.current) passwordRef.current.value = '';
    }
  }, [result]);

  const emailError = result?.fieldErrors?.email;
  const passwordError = result?.fieldErrors?.password;

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
        {result?.formError ? (
          <div className="banner banner-danger" role="alert" tabIndex={-1} ref={errorRef}>
            {result.formError}
          </div>
        ) : null}

        <Form method="post" replace noValidate className="form" aria-busy={submitting}>
          <div className="field">
            <label htmlFor="login-email">Email</label>
            <input
              ref={emailRef}
              id="login-email"
              name="email"
              type="email"
              autoComplete="username"
              inputMode="email"
              required
              autoFocus
              defaultValue={result?.email ?? ''}
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? 'login-email-error' : undefined}
            />
            {emailError ? (
              <p id="login-email-error" className="field-error">
                {emailError}
              </p>
            ) : null}
          </div>
          <div className="field">
            <label htmlFor="login-password">Password</label>
            <input
              ref={passwordRef}
              id="login-password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={passwordError ? 'login-password-error' : undefined}
            />
            {passwordError ? (
              <p id="login-password-error" className="field-error">
                {passwordError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn btn-primary btn-block" disabled={submitting} aria-busy={submitting}>
            {submitting ? <span className="spinner spinner-on-primary" aria-hidden="true" /> : null}
            {submitting ? 'Signing in…' : 'Sign in'}
          </button>
        </Form>
      </section>
    </div>
  );
}
