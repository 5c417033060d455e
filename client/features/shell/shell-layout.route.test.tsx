import { act, screen, within } from '@testing-library/react';
import { chatApi } from '@contracts/chat.contract';
import { conversationsApi } from '@contracts/conversations.contract';
import { gymApi } from '@contracts/gym.contract';
import { webhookApi } from '@contracts/webhook.contract';
import { handle, problem } from '@/test-support/test-server';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp, signedInAs } from '@/test-support/test-utils';

const asRunner = signedInAs({ id: 9, email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner' });

describe('/shell for each role', () => {
  it('offers a runner the overview and the chat only; a page the role may not open says so inside the shell, its tabs kept', async () => {
    fakeBff([asRunner, handle(webhookApi.listEvents, () => problem(403, 'Forbidden', 'This needs the staff role.'))], { signedIn: true });
    renderApp('/shell/webhook');
    expect(await screen.findByText('You do not have access to this page.')).toBeInTheDocument();
    const tabs = within(screen.getByRole('navigation', { name: 'Staff shell' }));
    expect(tabs.getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Chat']);
    // The greeting is the overview's; a work page starts with its tabs and its own title.
    expect(screen.queryByText('Hello, Rita')).not.toBeInTheDocument();
  });

  it('tells the desk on every shell page when Kisi cannot be reached and how many members wait; a runner is not told', async () => {
    const away = handle(gymApi.doorSyncStatus, () => ({ kisi: 'unreachable' as const, checkedAt: null, waiting: 2, nextTryAt: null }));
    fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' }), away], { signedIn: true });
    const { unmount } = renderApp('/shell/empty');
    const notice = await screen.findByTestId('shell-kisi-away');
    expect(notice).toHaveTextContent('Kisi cannot be reached. 2 members wait for door access to follow their membership.');
    expect(within(notice).getByRole('link', { name: 'Members' })).toHaveAttribute('href', '/shell/gymowner/users');
    unmount();

    fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' }), handle(gymApi.doorSyncStatus, () => ({ kisi: 'unreachable' as const, checkedAt: null, waiting: 1, nextTryAt: null }))], { signedIn: true });
    const one = renderApp('/shell/empty');
    expect(await screen.findByTestId('shell-kisi-away')).toHaveTextContent('Kisi cannot be reached. 1 member waits for door access to follow their membership.');
    one.unmount();

    const api = fakeBff([asRunner, away], { signedIn: true });
    renderApp('/shell');
    await screen.findByText('Hello, Rita');
    expect(screen.queryByTestId('shell-kisi-away')).not.toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/gym/door-sync')).toBe(false);
  });

  it('greets on the overview', async () => {
    fakeBff([asRunner], { signedIn: true });
    renderApp('/shell');
    expect(await screen.findByText('Hello, Rita')).toBeInTheDocument();
  });

  it('offers staff the desk’s work in the header, members first, and no demo page', async () => {
    fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' })], { signedIn: true });
    renderApp('/shell');
    const tabs = within(await screen.findByRole('navigation', { name: 'Staff shell' }));
    expect(tabs.getAllByRole('link').map((link) => link.textContent)).toEqual(['Overview', 'Chat', 'Guest help', 'Door events', 'Files']);
    const header = within(screen.getByRole('navigation', { name: 'Main' }));
    expect(header.getAllByRole('link').map((link) => link.textContent)).toEqual(['Members', 'Door events', 'Gym owners', 'Food court', 'Chat', 'Guest help', 'Files', expect.stringContaining('Your account: Sam Staff')]);
  });

  it('adds access control to an admin’s header', async () => {
    fakeBff([], { signedIn: true });
    renderApp('/shell');
    const header = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(await header.findByRole('link', { name: 'Access control' })).toHaveAttribute('href', '/kisi');
    expect(header.getAllByRole('link')[0]).toHaveTextContent('Members');
  });

  it('offers a visitor the diner’s pages in the header everywhere, and the public pages from the home page, no staff page or demo of the staff', async () => {
    fakeBff();
    renderApp('/');
    const header = within(await screen.findByRole('navigation', { name: 'Main' }));
    expect(await header.findByRole('link', { name: 'Help' })).toBeInTheDocument();
    expect(header.getAllByRole('link').map((link) => link.textContent)).toEqual(['Menu', 'Cart', 'Your order', 'Help', 'Sign in']);
    const cards = (heading: string) =>
      within(screen.getByRole('heading', { name: heading }).closest('section')!)
        .getAllByRole('link')
        .map((link) => link.querySelector('.card-title')!.textContent);
    expect(cards('Areas')).toEqual(['Food court', 'Ask for help', 'Catalogue', 'About']);
    expect(cards('Samples')).not.toEqual(expect.arrayContaining(['Self-test']));
    expect(cards('Samples')).not.toEqual(expect.arrayContaining(['Windphony']));
    expect(cards('Samples')).toEqual(expect.arrayContaining(['Rick and Morty', 'Pokémon']));
    expect(within(screen.getByRole('navigation', { name: 'Footer' })).getAllByRole('link').map((link) => link.textContent)).toEqual(['About']);
  });
});

describe('/shell: what waits behind a tab', () => {
  fakeEventSourceEachTest();

  it('counts the guest messages waiting on the Guest help tab, and counts again when a guest writes', async () => {
    let unread = 2;
    fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' }), handle(conversationsApi.waiting, () => ({ unread }))], { signedIn: true });
    renderApp('/shell');
    const tabs = within(await screen.findByRole('navigation', { name: 'Staff shell' }));
    expect(await tabs.findByRole('link', { name: 'Guest help 2 unread' })).toHaveAttribute('href', '/shell/nuhs/basic/');

    unread = 3;
    act(() => FakeEventSource.current().open());
    act(() => FakeEventSource.current().emit('conversation', { kind: 'message' }, '41'));
    expect(await tabs.findByRole('link', { name: 'Guest help 3 unread' })).toBeInTheDocument();
  });

  it('counts the unread chat messages on the Chat tab on every shell page, and counts again when a message comes or the stream opens again', async () => {
    let totalUnread = 1;
    fakeBff([asRunner, handle(chatApi.listChannels, () => ({ channels: [], totalUnread }))], { signedIn: true });
    renderApp('/shell');
    const tabs = within(await screen.findByRole('navigation', { name: 'Staff shell' }));
    expect(await tabs.findByRole('link', { name: 'Chat 1 unread' })).toBeInTheDocument();

    totalUnread = 2;
    act(() => FakeEventSource.current().open());
    act(() => FakeEventSource.current().emit('chat', { kind: 'posted' }, '7'));
    expect(await tabs.findByRole('link', { name: 'Chat 2 unread' })).toBeInTheDocument();

    // A message that came while the stream was down is counted when it opens again.
    totalUnread = 3;
    act(() => FakeEventSource.current().drop());
    act(() => FakeEventSource.current().open());
    expect(await tabs.findByRole('link', { name: 'Chat 3 unread' })).toBeInTheDocument();
  });

  it('asks a runner nothing of guest help: they have no such tab', async () => {
    const { calls } = fakeBff([asRunner], { signedIn: true });
    renderApp('/shell');
    await screen.findByRole('navigation', { name: 'Staff shell' });
    await screen.findByText('Hello, Rita');
    expect(calls.some((c) => c.path === '/api/conversations/waiting')).toBe(false);
  });
});
