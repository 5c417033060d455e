import { useCallback, useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import * as v from 'valibot';
import { LinkTokenSchema } from '@contracts/team.contract';
import { Spinner } from '@/components/spinner';
import { errorMessage, isApiError } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';

/**
 * What the invitation and reset pages share: the link's secret, taken from the address's fragment
 * and kept in memory only, what the link is for, and what to say when it does not work.
 */

/**
 * The secret of `/join#…` or `/reset#…`, read once as the page opens; the fragment then leaves the
 * address bar and this history entry (a replace), so the tab's history, a shared screen or a
 * bookmark do not keep it. A reload finds no secret: the page says to open the link again.
 */
export function useLinkToken(): string {
  const location = useLocation();
  const navigate = useNavigate();
  const [token] = useState(() => {
    const raw = location.hash.replace(/^#/, '');
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  });
  useEffect(() => {
    if (location.hash) void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: location.state, preventScrollReset: true });
  }, [location, navigate]);
  return token;
}

/** Why a link cannot be used: none in the address, not a link we make, or no longer good. */
export type LinkProblemKind = 'missing' | 'malformed' | 'gone';

/** What a link page knows about its link: asking, what it offers, why it cannot be used, or a failure to ask. */
export type Preview<T> = { state: 'asking' } | { state: 'ready'; preview: T } | { state: 'unusable'; why: LinkProblemKind } | { state: 'failed'; error: unknown };

/**
 * Asks once what the link offers (`ask`, with the secret in the body); a 404 is a link used,
 * withdrawn or run out. `retry` asks again after a failure; `unusable` is for a link that stops
 * working while the page is open (answered 404 on submit).
 */
export function useLinkPreview<T>(token: string, ask: (token: string) => Promise<T>) {
  const [preview, setPreview] = useState<Preview<T>>(() =>
    !token ? { state: 'unusable', why: 'missing' } : v.is(LinkTokenSchema, token) ? { state: 'asking' } : { state: 'unusable', why: 'malformed' },
  );
  const [attempt, setAttempt] = useState(0);
  const asking = preview.state === 'asking';
  useEffect(() => {
    if (!asking) return;
    let current = true;
    ask(token).then(
      (answer) => current && setPreview({ state: 'ready', preview: answer }),
      (error: unknown) => current && setPreview(isApiError(error, 404) ? { state: 'unusable', why: 'gone' } : { state: 'failed', error }),
    );
    return () => {
      current = false;
    };
    // `ask` is a module's write; `attempt` asks again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, attempt, asking]);
  const retry = useCallback(() => {
    setPreview({ state: 'asking' });
    setAttempt((n) => n + 1);
  }, []);
  const unusable = useCallback((why: LinkProblemKind) => setPreview({ state: 'unusable', why }), []);
  return { preview, retry, unusable };
}

/** The card the link pages sit in: the sign-in page's look. */
export function LinkCard({ title, lede, children }: { title: string; lede?: ReactNode; children: ReactNode }) {
  return (
    <div className="auth-page link-page">
      <section className="card auth-card" aria-labelledby="link-title">
        <span className="brand-mark brand-mark-lg" aria-hidden="true">
          F
        </span>
        <h1 id="link-title">{title}</h1>
        {lede ? <p className="muted">{lede}</p> : null}
        {children}
      </section>
    </div>
  );
}

const PROBLEMS: Record<LinkProblemKind, { title: string; text: string }> = {
  missing: {
    title: 'This link is incomplete',
    text: 'The page opened without its secret part. Open the whole link again (the page forgets it once opened, so a reload loses it too).',
  },
  malformed: { title: 'This link is not valid', text: 'It is not a link Frontdesk made, or part of it is missing. Check that you copied all of it.' },
  gone: { title: 'This link no longer works', text: 'It was used already, withdrawn, or it ran out: each link works once, for a limited time.' },
};

/** A link that cannot be used, and what to do: ask for a new one, or sign in. */
export function LinkProblem({ why, pageTitle }: { why: LinkProblemKind; pageTitle: string }) {
  const problem = PROBLEMS[why];
  return (
    <LinkCard title={pageTitle}>
      <div className="banner banner-warning" role="alert">
        <p>
          <strong>{problem.title}.</strong> {problem.text}
        </p>
      </div>
      <p className="link-page-next">
        <strong>Ask your admin for a new link.</strong> If you have an account already, <AppLink to={paths.login}>sign in</AppLink>.
      </p>
    </LinkCard>
  );
}

/** The link page while it asks, or when asking failed (the server away, too many tries). */
export function PreviewPending({ preview, retry, pageTitle }: { preview: { state: 'asking' } | { state: 'failed'; error: unknown }; retry: () => void; pageTitle: string }) {
  return (
    <LinkCard title={pageTitle}>
      {preview.state === 'asking' ? (
        <Spinner label="Checking the link…" />
      ) : (
        <div className="banner banner-danger" role="alert">
          <p>Could not check the link: {errorMessage(preview.error)}</p>
          <button type="button" className="btn btn-small" onClick={retry}>
            Try again
          </button>
        </div>
      )}
    </LinkCard>
  );
}
