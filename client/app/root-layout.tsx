import { useEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import type { Location } from 'react-router';
import { Outlet, ScrollRestoration, useLocation, useMatches, useNavigate } from 'react-router';
import { Icon } from '@/components/icon';
import { AppLink, AppNavLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { sessionRead, signOut, useSessionEnded } from '@/lib/session';
import { navFor, useAudience } from '@/lib/areas';
import { ModalProvider } from '@/components/modal-host';
import { RouterPendingOverlay } from './pending-overlay';
import { ToastProvider, useToast } from '@/components/toast-host';
import { loginPath, paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { useUnreadTotal, withUnread } from '@/lib/unread-title';
import { useScrollingTabs } from '@/lib/scrolling-tabs';

/** Route handles may carry a `title`; the deepest one names the browser tab, after the unread count pages report. */
function useDocumentTitle() {
  const matches = useMatches();
  const title = [...matches].reverse().map((m) => (m.handle as { title?: string } | undefined)?.title).find(Boolean);
  const unread = useUnreadTotal();
  useEffect(() => {
    document.title = withUnread(title ? `${title} · Frontdesk` : 'Frontdesk', unread);
  }, [title, unread]);
}

/**
 * After a navigation whose link or form went away with the old page, focus would sit on the document
 * body (a screen reader says nothing, and the next Tab starts from the top): it goes to the main
 * region instead. A focus the new page kept or set itself (a tab, the login's email field) stays.
 */
function useFocusAfterNavigation(main: RefObject<HTMLElement | null>) {
  const { pathname } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const active = document.activeElement;
    if (!active || active === document.body) main.current?.focus({ preventScroll: true });
  }, [pathname, main]);
}

/**
 * Where a page's scroll position is kept. Each history entry has its own key, except a page's first
 * load, whose key is always "default": every address typed in the tab shared it, so a new page opened
 * scrolled to where the last typed one was left. A first load keys by its address instead (a reload
 * still comes back where it was).
 */
const scrollKey = (location: Location) => (location.key === 'default' ? location.pathname + location.search : location.key);

export function RootLayout() {
  useDocumentTitle();
  const mainRef = useRef<HTMLElement>(null);
  useFocusAfterNavigation(mainRef);
  useScrollingTabs();
  return (
    <ToastProvider>
      <ModalProvider>
        <div className="app-frame">
          <a className="skip-link" href="#main">
            Skip to content
          </a>
          <SiteHeader />
          <main id="main" className="main" tabIndex={-1} ref={mainRef}>
            <SessionEndedBanner />
            <Outlet />
          </main>
          <SiteFooter />
        </div>
        <RouterPendingOverlay />
        <ScrollRestoration getKey={scrollKey} />
      </ModalProvider>
    </ToastProvider>
  );
}

function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const { pathname } = useLocation();
  const navAreas = navFor(useAudience());
  const toggleRef = useRef<HTMLButtonElement>(null);
  const navRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // A link chosen in the phone menu hides with the menu, taking the focus with it: it goes to the new page instead.
    const folded = toggleRef.current !== null && getComputedStyle(toggleRef.current).display !== 'none';
    if (folded && navRef.current?.contains(document.activeElement)) document.getElementById('main')?.focus({ preventScroll: true });
    setMenuOpen(false);
  }, [pathname]);
  return (
    <header
      className="site-header"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && menuOpen) {
          setMenuOpen(false);
          toggleRef.current?.focus();
        }
      }}
    >
      <div className="site-header-inner">
        {/* Named by the word it shows, so "click Frontdesk" works for voice control. */}
        <AppLink to={paths.home} className="brand">
          <span className="brand-mark" aria-hidden="true">
            F
          </span>
          <span className="brand-name">Frontdesk</span>
        </AppLink>
        <button
          ref={toggleRef}
          type="button"
          className="icon-button menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <Icon name={menuOpen ? 'close' : 'menu'} />
          <span className="visually-hidden">Menu</span>
        </button>
        <nav ref={navRef} id="site-nav" className={`site-nav${menuOpen ? ' is-open' : ''}`} aria-label="Main">
          <ul>
            {navAreas.map((area) => (
              <li key={area.href}>
                <AppNavLink to={area.href} end={area.href === paths.home}>
                  {area.title}
                </AppNavLink>
              </li>
            ))}
          </ul>
          <SessionMenu />
        </nav>
      </div>
    </header>
  );
}

function initials(name: string) {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]!.toUpperCase())
    .join('');
}

/** Who is signed in, and the way out (or in). */
function SessionMenu() {
  const { data: user, isLoading } = useRead(sessionRead);
  const ended = useSessionEnded();
  const [leaving, setLeaving] = useState(false);
  const location = useLocation();
  const navigate = useNavigate();
  const toast = useToast();

  if (ended) {
    // The session ended under the page (lib/session.ts): not "Name · Sign out" any more. Signing in
    // happens in a new tab, as the banner says, so what was typed here stays.
    return (
      <div className="session">
        {/* Not in .session-who, which mid-width screens keep for screen readers only: everyone should see this. */}
        <span className="session-name">Signed out</span>
        {location.pathname === paths.login ? null : (
          <a href={loginPath({ redirect: location.pathname + location.search })} target="_blank" rel="noopener" className="btn btn-small btn-primary">
            Sign in
          </a>
        )}
      </div>
    );
  }
  if (isLoading && user === undefined) return <div className="session session-loading" aria-hidden="true" />;
  if (!user) {
    const here = location.pathname + location.search;
    const to = location.pathname === paths.login ? paths.login : loginPath({ redirect: here === paths.home ? '' : here });
    return (
      <div className="session">
        <AppLink to={to} className="btn btn-small btn-primary">
          Sign in
        </AppLink>
      </div>
    );
  }

  const onSignOut = async () => {
    setLeaving(true);
    try {
      await signOut();
      toast.show({ tone: 'success', message: 'You have signed out.' });
      if (location.pathname.startsWith(paths.shell)) navigate(loginPath({ flash: 'You have signed out.' }), { replace: true });
    } catch (error) {
      toast.show({ tone: 'error', title: 'Could not sign out', message: errorMessage(error) });
    } finally {
      setLeaving(false);
    }
  };

  return (
    <div className="session">
      {/* Who is signed in leads to their own account: name, password, sessions, passkeys. */}
      <AppLink to={paths.account} className="session-account" title="Your account">
        <span className="avatar" aria-hidden="true">
          {initials(user.name || user.email)}
        </span>
        <span className="session-who">
          <span className="visually-hidden">Your account: </span>
          <span className="session-name">{user.name}</span>
          <span className="session-role">
            <span className="visually-hidden">Signed in as </span>
            {user.email} · {user.role}
          </span>
        </span>
      </AppLink>
      <button type="button" className="btn btn-small btn-ghost" onClick={() => void onSignOut()} disabled={leaving} aria-busy={leaving}>
        <Icon name="logout" size={16} />
        {leaving ? 'Signing out…' : 'Sign out'}
      </button>
    </div>
  );
}

/**
 * Said above the page when its session ended under it (lib/session.ts `useSessionEnded`): signing in
 * again in a new tab brings this one back as it was, nothing typed lost; leaving would lose it.
 */
function SessionEndedBanner() {
  const ended = useSessionEnded();
  const location = useLocation();
  // The login page is where a page whose reads were refused goes: signing in there is the way on.
  if (!ended || location.pathname === paths.login) return null;
  return (
    <p className="banner banner-warning session-ended" role="alert">
      You are signed out: in another tab, or your session ran out.{' '}
      <a href={loginPath({ redirect: location.pathname + location.search })} target="_blank" rel="noopener">
        Sign in again in a new tab
      </a>
      , then carry on here: what you typed on this page is kept.
    </p>
  );
}

function SiteFooter() {
  // The self-test is a check-up for the people who work here, never offered to a diner (0061).
  const audience = useAudience();
  const worker = audience !== undefined && audience !== 'visitor';
  return (
    <footer className="site-footer">
      <div className="site-footer-inner">
        <span>Frontdesk · gym access, food court and staff tools in one place</span>
        <nav aria-label="Footer">
          <AppLink to={paths.about}>About</AppLink>
          {worker ? <AppLink to={paths.selfTest}>Self-test</AppLink> : null}
        </nav>
      </div>
    </footer>
  );
}
