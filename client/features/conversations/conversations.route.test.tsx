import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { conversationsApi } from '@contracts/conversations.contract';
import { handle } from '@/test-support/test-server';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, fakeNotificationsEachTest, middayEachTest, holdRequests, nextFrame, renderApp } from '@/test-support/test-utils';
import { SAM, conversation, fakeConversations, message, type FakeConversations } from '@/test-support/conversations.fake-api';

fakeEventSourceEachTest();
const notifications = fakeNotificationsEachTest();
middayEachTest();
afterEach(() => {
  jest.restoreAllMocks();
  sessionStorage.clear(); // drafts
});

const ME = { id: 1, name: 'Administrator' };

function inbox() {
  return fakeConversations({
    conversations: [
      conversation(1, {
        guestName: 'Ana Lima',
        table: 4,
        messages: [message(1, 'Hello?', { guestName: 'Ana Lima', minutesAgo: 12 }), message(1, 'Could we get more napkins?', { guestName: 'Ana Lima', minutesAgo: 5 })],
      }),
      conversation(2, {
        guestName: 'Ben Okafor',
        table: null,
        email: 'ben@mail.example',
        assignee: SAM,
        unread: 0,
        messages: [message(2, 'Where are the gym lockers?', { guestName: 'Ben Okafor', minutesAgo: 90 }), message(2, 'Next to reception, on the left.', { staff: SAM, minutesAgo: 61 })],
      }),
      conversation(3, { guestName: 'Cleo Park', status: 'resolved', assignee: ME, unread: 0, messages: [message(3, 'All sorted, thanks!', { guestName: 'Cleo Park', minutesAgo: 30 * 60 })] }),
    ],
  });
}

function setup(path = '/shell/nuhs/basic/', fake: FakeConversations = inbox()) {
  const api = fakeBff(fake.handlers, { signedIn: true });
  const view = renderApp(path);
  return { ...view, api, fake, user: userEvent.setup() };
}

const row = (name: string) => screen.getByRole('link', { name: new RegExp(`^${name}`) });
const listCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/conversations?')).map((c) => c.path);
const writes = (api: ReturnType<typeof fakeBff>, method: string) => api.calls.filter((c) => c.method === method && c.path.startsWith('/api/conversations')).map((c) => ({ path: c.path, body: c.body }));
const log = (name: string) => screen.getByRole('log', { name: `Messages with ${name}` });

describe('/shell/nuhs/basic (staff)', () => {
  it('lists open conversations newest first with preview, time, unread count, status and assignee', async () => {
    const { api } = setup();
    await screen.findByRole('heading', { name: 'Guest conversations', level: 1 });
    const rows = within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('link');
    expect(rows.map((r) => r.querySelector('.conv-row-name')?.textContent)).toEqual(['Ana Lima', 'Ben Okafor']);

    const ana = row('Ana Lima');
    expect(ana).toHaveTextContent('Table 4');
    expect(ana).toHaveTextContent('Could we get more napkins?');
    expect(ana).toHaveTextContent('5 minutes ago');
    expect(ana).toHaveTextContent('Open');
    expect(ana).toHaveTextContent('Unassigned');
    expect(within(ana).getByText('2', { selector: '.conv-unread' })).toHaveTextContent('2 unread');

    const ben = row('Ben Okafor');
    expect(ben).toHaveTextContent('ben@mail.example');
    expect(ben).toHaveTextContent('Sam Rivera: Next to reception, on the left.');
    expect(ben).toHaveTextContent('1 hour ago');
    expect(ben).toHaveTextContent('Assigned to Sam Rivera');
    expect(ben.querySelector('.conv-unread')).toBeNull();

    expect(screen.queryByRole('link', { name: /^Cleo Park/ })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Pick a conversation' })).toBeInTheDocument();
    expect(listCalls(api)[0]).toBe('/api/conversations?status=open&assignee=anyone&page=0&pageSize=20');
  });

  it('asks the API again when the status, assignee or search change, keeping them in the URL', async () => {
    const { api, user, router } = setup();
    await screen.findByRole('link', { name: /^Ana Lima/ });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'resolved');
    expect(await screen.findByRole('link', { name: /^Cleo Park/ })).toHaveTextContent('Resolved');
    expect(listCalls(api).at(-1)).toBe('/api/conversations?status=resolved&assignee=anyone&page=0&pageSize=20');
    expect(router.state.location.search).toBe('?status=resolved');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Assigned to' }), 'mine');
    await waitFor(() => expect(listCalls(api).at(-1)).toBe('/api/conversations?status=resolved&assignee=mine&page=0&pageSize=20'));
    expect(row('Cleo Park')).toHaveTextContent('Assigned to You');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'all');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assigned to' }), 'anyone');
    await user.type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'napkins');
    await waitFor(() => expect(listCalls(api).at(-1)).toBe('/api/conversations?status=all&assignee=anyone&query=napkins&page=0&pageSize=20'));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Conversations' })).getAllByRole('link')).toHaveLength(1));
    expect(row('Ana Lima')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?status=all&query=napkins');

    await user.clear(screen.getByRole('searchbox', { name: 'Search conversations' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search conversations' }), 'nobody-says-this');
    expect(await screen.findByRole('heading', { name: 'No conversations match' })).toBeInTheDocument();
  });

  it('keeps both of two filter changes made before the first one has loaded', async () => {
    const { api, user, router } = setup();
    await screen.findByRole('link', { name: /^Ana Lima/ });
    const held = holdRequests((method, path) => method === 'GET' && path === '/api/conversations');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'resolved');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Assigned to' }), 'mine');
    await held.release();
    await waitFor(() => expect(router.state.location.search).toBe('?status=resolved&assignee=mine'));
    await waitFor(() => expect(listCalls(api).at(-1)).toBe('/api/conversations?status=resolved&assignee=mine&page=0&pageSize=20'));
  });

  it('falls back to the defaults for bad filter params', async () => {
    const { api } = setup('/shell/nuhs/basic/?status=weird&assignee=42&page=-3');
    await screen.findByRole('link', { name: /^Ana Lima/ });
    expect(listCalls(api)[0]).toBe('/api/conversations?status=open&assignee=anyone&page=0&pageSize=20');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('open');
  });

  it('after years says "1,000+"; its Next link carries the cursor, and a thread opened from that page keeps it', async () => {
    const fake = inbox();
    const [ana, ben] = fake.conversations.map(({ messages: _messages, ...summary }) => summary);
    const api = fakeBff(
      [
        handle(conversationsApi.list, ({ query: { page, pageSize, next } }) =>
          next === 'c0'
            ? { items: [ben!], page: 1, pageSize, total: 1_020, totalIsLowerBound: true, next: 'c1', previous: 'p1' }
            : { items: [ana!], page, pageSize, total: 1_000, totalIsLowerBound: true, next: 'c0' },
        ),
        ...fake.handlers,
      ],
      { signedIn: true },
    );
    renderApp('/shell/nuhs/basic/?query=napkins');
    const user = userEvent.setup();
    expect(await screen.findByText('Showing 1–20 of 1,000+ conversations')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await user.click(await screen.findByRole('link', { name: /^Ben Okafor/ }));
    expect(await screen.findByRole('heading', { name: 'Ben Okafor', level: 2 })).toBeInTheDocument();
    expect(listCalls(api)).toContain('/api/conversations?status=open&assignee=anyone&query=napkins&page=1&next=c0&pageSize=20');
    expect(row('Ben Okafor')).toHaveAttribute('href', '/shell/nuhs/basic/2?query=napkins&page=2&next=c0');
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/shell/nuhs/basic/2?query=napkins&page=3&next=c1');
  });

  it('opens a thread beside the list, oldest first under a day divider, and marks it read', async () => {
    const { api, user, fake } = setup();
    await user.click(await screen.findByRole('link', { name: /^Ana Lima/ }));
    expect(await screen.findByRole('heading', { name: 'Ana Lima', level: 2 })).toBeInTheDocument();

    const thread = log('Ana Lima');
    expect(thread).toHaveAttribute('aria-live', 'polite');
    const items = within(thread).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual([expect.stringContaining('Today'), expect.stringContaining('Hello?'), expect.stringContaining('Could we get more napkins?')]);
    expect(items[1]).toHaveClass('msg-in');

    await waitFor(() => expect(writes(api, 'POST')).toEqual([{ path: '/api/conversations/1/read', body: undefined }]));
    expect(fake.conversations[0]!.unread).toBe(0);
    // The open conversation is marked in the list, its badge gone.
    expect(row('Ana Lima')).toHaveAttribute('aria-current', 'page');
    expect(row('Ana Lima').querySelector('.conv-unread')).toBeNull();
  });

  it('assigns to me and resolves: PATCHes and shows the change in the thread and the list', async () => {
    const { api, user } = setup('/shell/nuhs/basic/1');
    await screen.findByRole('heading', { name: 'Ana Lima', level: 2 });
    expect(screen.getByText('Unassigned', { selector: '.conv-assignee' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Assign to me' }));
    expect(await screen.findByRole('button', { name: 'Unassign' })).toBeInTheDocument();
    expect(writes(api, 'PATCH')).toEqual([{ path: '/api/conversations/1', body: { assigneeId: 1 } }]);
    expect(screen.getByText('Assigned to you', { selector: '.conv-assignee' })).toBeInTheDocument();
    await waitFor(() => expect(row('Ana Lima')).toHaveTextContent('Assigned to You'));
    expect(screen.getByText('Ana Lima’s conversation is assigned to you.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByRole('button', { name: 'Reopen' })).toBeInTheDocument();
    expect(writes(api, 'PATCH').at(-1)).toEqual({ path: '/api/conversations/1', body: { status: 'resolved' } });
    expect(screen.getByText('Resolved', { selector: '.conv-state .badge' })).toBeInTheDocument();
    // Only open conversations are listed: it leaves the list, its thread stays open.
    await waitFor(() => expect(screen.queryByRole('link', { name: /^Ana Lima/ })).not.toBeInTheDocument());
    expect(screen.getByRole('heading', { name: 'Ana Lima', level: 2 })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Unassign' }));
    await screen.findByRole('button', { name: 'Assign to me' });
    expect(writes(api, 'PATCH').at(-1)).toEqual({ path: '/api/conversations/1', body: { assigneeId: null } });
  });

  it('sends a reply with Enter; Shift+Enter starts a new line', async () => {
    const { api, user } = setup('/shell/nuhs/basic/2');
    await screen.findByRole('heading', { name: 'Ben Okafor', level: 2 });
    const box = screen.getByRole('textbox', { name: 'Reply to Ben Okafor' });
    await user.type(box, 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(box).toHaveValue('Line one\nLine two');
    expect(writes(api, 'POST').filter((c) => c.path.endsWith('/messages'))).toEqual([]);

    await user.type(box, '{Enter}');
    await waitFor(() => expect(box).toHaveValue(''));
    expect(writes(api, 'POST').filter((c) => c.path.endsWith('/messages'))).toEqual([{ path: '/api/conversations/2/messages', body: { body: 'Line one\nLine two', as: 'staff' } }]);
    const mine = within(log('Ben Okafor')).getAllByRole('listitem').at(-1)!;
    expect(mine).toHaveClass('msg-out');
    expect(mine).toHaveTextContent('You');
    expect(mine.querySelector('.msg-body')!.textContent).toBe('Line one\nLine two');

    // A blank reply is not sent.
    await user.type(box, '   {Enter}');
    expect(screen.getByRole('alert')).toHaveTextContent('Write a message first');
  });

  it('keeps what is typed while a reply is on its way: only the sent text leaves the box', async () => {
    const { api, user } = setup('/shell/nuhs/basic/2');
    await screen.findByRole('heading', { name: 'Ben Okafor', level: 2 });
    const box = screen.getByRole('textbox', { name: 'Reply to Ben Okafor' });
    const held = holdRequests((method, path) => method === 'POST' && path === '/api/conversations/2/messages');
    await user.type(box, 'Let me check{Enter}');
    await user.type(box, '{Enter}One moment please');
    await held.release();
    expect(await within(log('Ben Okafor')).findByText('Let me check')).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('One moment please'));
    expect(writes(api, 'POST').filter((c) => c.path.endsWith('/messages'))).toEqual([{ path: '/api/conversations/2/messages', body: { body: 'Let me check', as: 'staff' } }]);
  });

  it('keeps each conversation’s half-written reply through another conversation and another page', async () => {
    const { user, router } = setup('/shell/nuhs/basic/2');
    await screen.findByRole('heading', { name: 'Ben Okafor', level: 2 });
    await user.type(screen.getByRole('textbox', { name: 'Reply to Ben Okafor' }), 'The lockers are');
    await user.click(row('Ana Lima'));
    expect(await screen.findByRole('textbox', { name: 'Reply to Ana Lima' })).toHaveValue('');
    await act(() => router.navigate('/shell'));
    await act(() => router.navigate('/shell/nuhs/basic/2'));
    expect(await screen.findByRole('textbox', { name: 'Reply to Ben Okafor' })).toHaveValue('The lockers are');
  });

  it('shows what a sender wrote as text: HTML stays literal, only web links are links', async () => {
    const body = '<img src=x onerror="alert(1)"><b>bold</b> menu at https://example.com/menu. Not javascript:alert(1)';
    const fake = fakeConversations({ conversations: [conversation(5, { guestName: 'Eve', messages: [message(5, body, { guestName: 'Eve' })] })] });
    setup('/shell/nuhs/basic/5', fake);
    await screen.findByRole('heading', { name: 'Eve', level: 2 });
    const thread = log('Eve');
    expect(thread.querySelector('img, b, script')).toBeNull();
    expect(thread.querySelector('.msg-body')!.textContent).toBe(body);
    const links = within(thread).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'https://example.com/menu');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });

  it('takes in live messages once, reads the list again and marks the thread read', async () => {
    const { api, fake } = setup('/shell/nuhs/basic/1');
    await screen.findByRole('heading', { name: 'Ana Lima', level: 2 });
    const stream = FakeEventSource.current();
    expect(stream.url).toBe('/api/events');
    act(() => stream.open());
    await waitFor(() => expect(writes(api, 'POST')).toHaveLength(1)); // read on open
    const listReads = listCalls(api).length;

    const event = fake.guestWrites(1, 'And a high chair, please.');
    act(() => stream.emit('conversation', event, '31'));
    act(() => stream.emit('conversation', event, '31')); // the same event twice (a resume) shows once
    expect(await within(log('Ana Lima')).findByText('And a high chair, please.')).toBeInTheDocument();
    expect(within(log('Ana Lima')).getAllByText('And a high chair, please.')).toHaveLength(1);
    await waitFor(() => expect(listCalls(api).length).toBeGreaterThan(listReads));
    await waitFor(() => expect(writes(api, 'POST').filter((c) => c.path === '/api/conversations/1/read')).toHaveLength(2));

    // Another conversation's news: announced, and the list shows it.
    act(() => stream.emit('conversation', fake.guestWrites(2, 'Is the sauna open?'), '32'));
    expect(await screen.findByText('New message from Ben Okafor.')).toBeInTheDocument();
    await waitFor(() => expect(row('Ben Okafor')).toHaveTextContent('Is the sauna open?'));
  });

  it('notifies of a new help request while the tab is hidden (not of a follow-up, nor while on screen); a click opens it', async () => {
    const { fake } = setup();
    await screen.findByRole('link', { name: /^Ana Lima/ });
    const stream = FakeEventSource.current();
    act(() => stream.open());

    act(() => stream.emit('conversation', fake.guestWrites(1, 'Still waiting'), '50'));
    notifications.tab.hidden = false;
    act(() => stream.emit('conversation', fake.guestStarts('Dee Ray', 'Any high chairs?', 6), '51'));
    expect(notifications.shown).toEqual([]);

    notifications.tab.hidden = true;
    act(() => stream.emit('conversation', fake.guestStarts('Eli Moss', 'We need a high chair, please', 2), '52'));
    expect(notifications.shown.map(({ title, body, tag }) => ({ title, body, tag }))).toEqual([
      { title: 'Help request from Eli Moss', body: 'Table 2: We need a high chair, please', tag: 'conversation-5' },
    ]);
    notifications.shown[0]!.click();
    expect(await screen.findByRole('heading', { name: 'Eli Moss', level: 2 })).toBeInTheDocument();
  });

  it('puts the unread guest messages in the tab title until they are read', async () => {
    const { user } = setup();
    await waitFor(() => expect(document.title).toBe('(2) Guest conversations · Frontdesk'));
    await user.click(screen.getByRole('link', { name: /^Ana Lima/ }));
    await waitFor(() => expect(row('Ana Lima').querySelector('.conv-unread')).toBeNull());
    await waitFor(() => expect(document.title).not.toMatch(/^\(/));
  });

  it('takes in a live message that arrives before the thread’s first read has settled', async () => {
    const { fake } = setup('/shell/nuhs/basic/1');
    await screen.findByRole('heading', { name: 'Ana Lima', level: 2 });
    act(() => FakeEventSource.current().emit('conversation', fake.guestWrites(1, 'Quick one'), '20'));
    expect(await within(log('Ana Lima')).findByText('Quick one')).toBeInTheDocument();
    await act(async () => {}); // the reads asked so far have answered
    expect(within(log('Ana Lima')).getByText('Quick one')).toBeInTheDocument();
  });

  it('opens a conversation at its newest message (the end of the thread)', async () => {
    const scrolled = jest.spyOn(Element.prototype, 'scrollTop', 'set');
    jest.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
      return this.getAttribute('role') === 'log' ? 1000 : 0;
    });
    setup('/shell/nuhs/basic/1');
    await screen.findByRole('heading', { name: 'Ana Lima', level: 2 });
    await waitFor(() => expect(scrolled).toHaveBeenCalledWith(1000));
    expect(scrolled.mock.contexts[scrolled.mock.calls.findIndex(([top]) => top === 1000)]).toBe(log('Ana Lima'));
  });

  it('keeps the reader’s place when scrolled up and offers a jump to the new messages', async () => {
    const { fake } = setup('/shell/nuhs/basic/1');
    await screen.findByRole('heading', { name: 'Ana Lima', level: 2 });
    // The thread's first scroll to its end runs in the next frame (before the browser's first paint).
    await nextFrame();
    const thread = log('Ana Lima');
    let top = 0;
    Object.defineProperty(thread, 'scrollHeight', { configurable: true, get: () => 1000 });
    Object.defineProperty(thread, 'clientHeight', { configurable: true, get: () => 300 });
    Object.defineProperty(thread, 'scrollTop', { configurable: true, get: () => top, set: (value: number) => (top = value) });
    const stream = FakeEventSource.current();
    act(() => stream.open());

    top = 100; // reading back
    fireEvent.scroll(thread);
    act(() => stream.emit('conversation', fake.guestWrites(1, 'Hello again'), '40'));
    act(() => stream.emit('conversation', fake.guestWrites(1, 'Anyone there?'), '41'));
    await within(thread).findByText('Anyone there?');
    const jump = await screen.findByRole('button', { name: '2 new messages' });
    expect(top).toBe(100);

    await userEvent.setup().click(jump);
    expect(top).toBe(1000);
    expect(screen.queryByRole('button', { name: /new message/ })).not.toBeInTheDocument();
    expect(thread).toHaveFocus();

    // At the end: the next message scrolls into view by itself.
    top = 700;
    fireEvent.scroll(thread);
    act(() => stream.emit('conversation', fake.guestWrites(1, 'Thanks!'), '42'));
    await within(thread).findByText('Thanks!');
    expect(top).toBe(1000);
    expect(screen.queryByRole('button', { name: /new message/ })).not.toBeInTheDocument();
  });

  it('shows the not-found screen at once for a malformed id, asking nothing', async () => {
    const { api } = setup('/shell/nuhs/basic/abc');
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
    // Nothing of that conversation (the shell's Guest help tab still asks what waits).
    expect(api.calls.some((c) => c.path.startsWith('/api/conversations/abc'))).toBe(false);
  });

  it('says so when there is nothing to answer', async () => {
    setup('/shell/nuhs/basic/', fakeConversations());
    expect(await screen.findByRole('heading', { name: 'No open conversations' })).toBeInTheDocument();
  });
});
