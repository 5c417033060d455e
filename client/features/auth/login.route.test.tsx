import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { loginApi } from '@contracts/login.contract';
import { ADMIN_USER, fakeBff, installFormDataShim, renderApp } from '@/test-support/test-utils';
import { handle, problem, server } from '@/test-support/test-server';

installFormDataShim();
afterEach(() => jest.restoreAllMocks());

const PASSWORD = 'correct-horse-battery';

/** POST /api/auth/login: the one right password signs in (the session's getAuth then says so). */
function withLogin(session: { signedIn: boolean }) {
  return handle(loginApi.login, ({ body: { email, password } }) => {
    if (email === 'slow@down.test') return problem(429, 'Too Many Requests', 'Too many sign-in attempts. Try again in a minute.');
    if (email === 'left@venue.test' && password === PASSWORD) return problem(403, 'Forbidden', 'This account is deactivated: ask an admin to reactivate it.');
    if (email !== ADMIN_USER.email || password !== PASSWORD) return problem(401, 'Unauthorized', 'Wrong email or password');
    session.signedIn = true;
    return { user: ADMIN_USER };
  });
}

function setup(path: string, signedIn = false) {
  const api = fakeBff([], { signedIn });
  server.use(withLogin(api.session));
  const view = renderApp(path);
  return { ...view, api, user: userEvent.setup() };
}

const search = (router: { state: { location: { search: string } } }) => new URLSearchParams(router.state.location.search);

async function signIn(user: ReturnType<typeof userEvent.setup>, email: string, password: string) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('/shell is protected by middleware that asks GET /api/auth/session first', () => {
  it('sends a signed-out visitor to /login with the error as flash and the wanted href, before any loader runs', async () => {
    const { router, api } = setup('/shell/api?x=1');
    expect(await screen.findByRole('heading', { name: 'Sign in to Frontdesk' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(search(router).get('flash')).toBe('Please sign in to continue.');
    expect(search(router).get('redirect')).toBe('/shell/api?x=1');
    expect(screen.getAllByRole('status').map((s) => s.textContent)).toContain('Please sign in to continue.');
    // the status loader of /shell/api never ran
    expect(api.calls.filter((c) => c.path === '/api')).toHaveLength(0);
  });

  it('lets a signed-in user in and shows who they are', async () => {
    setup('/shell', true);
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeInTheDocument();
    expect(screen.getByText('Hello, Administrator')).toBeInTheDocument();
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(header).findByText('Administrator')).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: /Sign out/ })).toBeInTheDocument();
  });
});

describe('/login', () => {
  it('signs in and follows a same-origin redirect', async () => {
    const { router, user } = setup('/login?redirect=%2Fshell%2Fapi');
    await signIn(user, ADMIN_USER.email, PASSWORD);
    expect(await screen.findByRole('heading', { name: 'Service status' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell/api');
    const header = screen.getByRole('navigation', { name: 'Main' });
    expect(await within(header).findByText('Administrator')).toBeInTheDocument();
  });

  it('puts the focus in the email box once the page has painted, opened directly or from a link', async () => {
    const { user } = setup('/login');
    const email = await screen.findByLabelText('Email');
    await waitFor(() => expect(email).toHaveFocus());

    await user.click(screen.getByRole('link', { name: 'Frontdesk' }));
    await user.click((await screen.findAllByRole('link', { name: 'Sign in' }))[0]!);
    const again = await screen.findByLabelText('Email');
    await waitFor(() => expect(again).toHaveFocus());
  });

  it('ignores a redirect to another origin and goes to /shell', async () => {
    const { router, user } = setup('/login?redirect=%2F%2Fevil.example%2Fsteal');
    await signIn(user, ADMIN_USER.email, PASSWORD);
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/shell');
  });

  it('says so when the email or password is wrong, and keeps the email', async () => {
    const { router, user } = setup('/login');
    await signIn(user, ADMIN_USER.email, 'nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password.');
    expect(screen.getByLabelText('Email')).toHaveValue(ADMIN_USER.email);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('shows the server’s words when sign-in is rate limited', async () => {
    const { user } = setup('/login');
    await signIn(user, 'slow@down.test', 'whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many sign-in attempts. Try again in a minute.');
  });

  it('tells someone with the right password of a deactivated account why, and stays on the form', async () => {
    const { user, router } = setup('/login');
    await signIn(user, 'left@venue.test', PASSWORD);
    expect(await screen.findByRole('alert')).toHaveTextContent('This account is deactivated: ask an admin to reactivate it.');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('asks for missing fields without calling the server', async () => {
    const { api, user } = setup('/login');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter an email address')).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls.filter((c) => c.path === '/api/auth/login')).toHaveLength(0);
  });

  it('sends the credentials as JSON', async () => {
    const { api, user } = setup('/login');
    await signIn(user, ADMIN_USER.email, PASSWORD);
    await screen.findByRole('heading', { name: 'Your account' });
    const call = api.calls.find((c) => c.path === '/api/auth/login')!;
    expect(call.body).toEqual({ email: ADMIN_USER.email, password: PASSWORD });
    expect(call.headers.get('Content-Type')).toBe('application/json');
  });
});

describe('sign out', () => {
  it('from the shell, signs out and returns to /login with a flash', async () => {
    const { router, user, api } = setup('/shell', true);
    await screen.findByRole('heading', { name: 'Your account' });
    await user.click(await screen.findByRole('button', { name: /Sign out/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(search(router).get('flash')).toBe('You have signed out.');
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/auth/logout')).toBe(true);
    expect(await screen.findByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });
});
