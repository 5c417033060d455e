import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { chatApi } from '@contracts/chat.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, fakeNotificationsEachTest, middayEachTest, holdRequests, installFormDataShim, nextFrame, renderApp, signedInAs } from '@/test-support/test-utils';
import { handle, passOn, problem } from '@/test-support/test-server';
import { channel, fakeChat, message, type FakeChat } from '@/test-support/chat.fake-api';

fakeEventSourceEachTest();
const notifications = fakeNotificationsEachTest();
installFormDataShim();
middayEachTest();
afterEach(() => {
  jest.restoreAllMocks();
  sessionStorage.clear(); // drafts
});

/** Yesterday at noon, local time: a day divider of its own. */
function yesterdayNoon(): string {
  const d = new Date();
  d.setDate(d.getDate() - 1);
  d.setHours(12, 0, 0, 0);
  return d.toISOString();
}

/** Front desk read up to date; Kitchen has 3 unread, Managers 1: 4 in all. */
function venue(): FakeChat {
  return fakeChat({
    channels: [channel(1, { name: 'Front desk', topic: 'Members at the desk' }), channel(2, { name: 'Kitchen', runnersMayJoin: true }), channel(3, { name: 'Managers' })],
    messages: [
      message(11, 1, { body: 'Morning all', createdAt: yesterdayNoon() }),
      message(12, 1, { mine: true, body: 'Doors are open', minutesAgo: 20 }),
      message(13, 1, { body: 'Delivery at the back door', minutesAgo: 10 }),
      message(21, 2, { body: 'Laksa is sold out' }),
      message(22, 2, { body: 'Table 4 waiting' }),
      message(23, 2, { body: 'Runner needed at stall 2' }),
      message(31, 3, { body: 'Rota is up' }),
    ],
    reads: { 1: 13, 2: 20 },
  });
}

const asStaff = signedInAs({ id: 1, email: 'sam@frontdesk.test', name: 'Sam Staff', role: 'staff' });

function setup(path = '/shell/chat', chat: FakeChat = venue(), { staff = false }: { staff?: boolean } = {}) {
  const api = fakeBff([...(staff ? [asStaff] : []), ...chat.handlers], { signedIn: true });
  const view = renderApp(path);
  return { ...view, api, chat, user: userEvent.setup() };
}

const channelLink = (name: string) => within(screen.getByRole('navigation', { name: 'Channels' })).getByRole('link', { name: new RegExp(name) });
const thread = (name: string) => screen.getByRole('log', { name: `Messages in ${name}` });
const bubbleOf = (text: string) => screen.getByText(text).closest('li')!;
const posts = (api: ReturnType<typeof fakeBff>, suffix: string) => api.calls.filter((c) => c.method === 'POST' && c.path.endsWith(suffix)).map((c) => ({ path: c.path, body: c.body }));

/** The log as a browser lays it out: 2000 px of messages (or `perMessage` each) in a 400 px box, scrolled to the end. */
function layOut(log: HTMLElement, { height: fixed = 2000, client = 400, perMessage = 0 } = {}) {
  // With `perMessage`, the log is as tall as its messages (older ones put in above make it taller).
  const measure = () => (perMessage ? log.querySelectorAll('li').length * perMessage : fixed);
  let top = measure() - client;
  Object.defineProperty(log, 'scrollHeight', { configurable: true, get: measure });
  Object.defineProperty(log, 'clientHeight', { configurable: true, get: () => client });
  Object.defineProperty(log, 'scrollTop', {
    configurable: true,
    get: () => top,
    set: (value: number) => {
      top = Math.max(0, Math.min(value, measure() - client));
    },
  });
  return {
    get top() {
      return top;
    },
    get bottom() {
      return measure() - client;
    },
    scrollTo(value: number) {
      top = value;
      fireEvent.scroll(log);
    },
  };
}

describe('/shell/chat', () => {
  it('lists the channels with their unread counts, the total in the header and on the Chat tab, and opens the first channel', async () => {
    setup();
    expect(await screen.findByRole('heading', { name: 'Chat', level: 1 })).toBeInTheDocument();
    expect(channelLink('Kitchen')).toHaveTextContent('3 unread');
    expect(channelLink('Managers')).toHaveTextContent('1 unread');
    expect(channelLink('Front desk')).not.toHaveTextContent('unread');
    expect(channelLink('Front desk')).toHaveAttribute('aria-current', 'page');
    expect(channelLink('Kitchen')).toHaveAttribute('href', '/shell/chat?channel=2');
    expect(channelLink('Kitchen')).toHaveTextContent('Sam Rivera: Runner needed at stall 2');
    expect(screen.getByText(/across your channels/)).toHaveTextContent('4 unread messages across your channels');
    expect(within(screen.getByRole('navigation', { name: 'Staff shell' })).getByRole('link', { name: /Chat/ })).toHaveTextContent('Chat4 unread');
    await waitFor(() => expect(document.title).toBe('(4) Chat · Frontdesk'));

    // The thread: the topic, day dividers, and the reader's own messages on the other side.
    expect(screen.getByRole('heading', { name: 'Front desk', level: 2 })).toBeInTheDocument();
    expect(screen.getByText('Members at the desk')).toBeInTheDocument();
    const log = thread('Front desk');
    expect(log).toHaveAttribute('aria-live', 'polite');
    expect(within(log).getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Yesterday', 'Today']);
    expect(bubbleOf('Doors are open')).toHaveClass('is-mine');
    expect(bubbleOf('Doors are open')).toHaveTextContent('You');
    expect(bubbleOf('Delivery at the back door')).toHaveClass('is-theirs');
    expect(bubbleOf('Delivery at the back door')).toHaveTextContent('Sam Rivera');
  });

  it('opens the channel in ?channel=, marks it read while its newest message is in view, and counts down locally', async () => {
    const { api } = setup('/shell/chat?channel=2');
    expect(await screen.findByRole('log', { name: 'Messages in Kitchen' })).toHaveTextContent('Runner needed at stall 2');
    await waitFor(() => expect(posts(api, '/read')).toEqual([{ path: '/api/chat/channels/2/read', body: { upTo: 23 } }]));
    await waitFor(() => expect(channelLink('Kitchen')).not.toHaveTextContent('unread'));
    expect(screen.getByText(/across your channels/)).toHaveTextContent('1 unread message across your channels');
    // Only the one read: lists were not read again for it.
    expect(channelLink('Managers')).toHaveTextContent('1 unread');
  });

  it('falls back to the first channel when ?channel= is not a channel', async () => {
    setup('/shell/chat?channel=abc');
    expect(await screen.findByRole('log', { name: 'Messages in Front desk' })).toBeInTheDocument();
  });

  it('falls back to the first channel when ?channel= names one not listed to the reader (gone, or not open to them)', async () => {
    const { api } = setup('/shell/chat?channel=99');
    expect(await screen.findByRole('log', { name: 'Messages in Front desk' })).toHaveTextContent('Delivery at the back door');
    expect(channelLink('Front desk')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByText(/Could not read/)).not.toBeInTheDocument();
    // The thread of a channel the list does not hold is never asked for (its 404 would be an error in the console).
    expect(api.calls.filter((c) => c.path.startsWith('/api/chat/channels/99/'))).toEqual([]);
  });

  it('switches channel from the list, keeping each channel’s draft', async () => {
    const { user, router } = setup();
    await screen.findByRole('log', { name: 'Messages in Front desk' });
    await user.type(screen.getByLabelText('Message'), 'half a thought');
    await user.click(channelLink('Managers'));
    expect(await screen.findByRole('log', { name: 'Messages in Managers' })).toHaveTextContent('Rota is up');
    expect(router.state.location.search).toBe('?channel=3');
    expect(screen.getByLabelText('Message')).toHaveValue('');
    await user.click(channelLink('Front desk'));
    await screen.findByRole('log', { name: 'Messages in Front desk' });
    expect(screen.getByLabelText('Message')).toHaveValue('half a thought');
  });

  it('keeps a draft for the person who typed it: the next account on the tab finds an empty box, and signing out takes it', async () => {
    // Sam (account 7) left a half-written message in Front desk on this tab.
    sessionStorage.setItem('frontdesk.draft.7.chat.1', 'PRIVATE: rota swap');
    const { user } = setup();
    const box = await screen.findByLabelText('Message');
    expect(box).toHaveValue('');
    await user.type(box, 'My own note');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(Object.keys(sessionStorage).filter((key) => key.startsWith('frontdesk.draft.'))).toEqual([]));
  });

  it('says so when the session ended under the page (a 401 to a send): sign in again in a new tab, the text kept', async () => {
    const { user, chat } = setup();
    chat.failNextPost = 401;
    const box = await screen.findByLabelText('Message');
    await user.type(box, 'Still here?{Enter}');
    const banner = await screen.findByText(/You are signed out: in another tab, or your session ran out/);
    const again = within(banner).getByRole('link', { name: 'Sign in again in a new tab' });
    expect(again).toHaveAttribute('target', '_blank');
    expect(again).toHaveAttribute('href', '/login?redirect=%2Fshell%2Fchat');
    expect(box).toHaveValue('Still here?');
  });

  it('hears of a sign-out in another tab of the browser, and of the sign-in that brings the page back', async () => {
    setup();
    await screen.findByLabelText('Message');
    const otherTab = new BroadcastChannel('frontdesk.session');
    try {
      otherTab.postMessage('signed-out');
      expect(await screen.findByText(/You are signed out/)).toBeInTheDocument();
      otherTab.postMessage('signed-in');
      await waitFor(() => expect(screen.queryByText(/You are signed out/)).not.toBeInTheDocument());
    } finally {
      otherTab.close();
    }
  });

  it('sends with Enter (Shift+Enter is a new line) and shows the message once, even when its live event follows', async () => {
    const { user, api, chat } = setup();
    const box = await screen.findByLabelText('Message');
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await user.type(box, '   ');
    expect(send).toBeDisabled();
    await user.clear(box);
    await user.type(box, 'Two lines{Shift>}{Enter}{/Shift}second line{Enter}');
    const sent = await within(thread('Front desk')).findByText(/Two lines/);
    expect(sent.closest('li')).toHaveClass('is-mine');
    expect(sent).toHaveTextContent('Two lines second line');
    expect(sent.textContent).toBe('Two lines\nsecond line');
    expect(box).toHaveValue('');
    expect(posts(api, '/messages')).toEqual([{ path: '/api/chat/channels/1/messages', body: { body: 'Two lines\nsecond line' } }]);
    expect(channelLink('Front desk')).toHaveTextContent('You: Two lines second line');

    const stored = chat.messages.at(-1)!;
    act(() => FakeEventSource.current().emit('chat', chat.publish('posted', stored), '9'));
    await act(async () => {}); // what the event changed in the caches is on screen
    expect(within(thread('Front desk')).getAllByText(/Two lines/)).toHaveLength(1);
    expect(channelLink('Front desk')).not.toHaveTextContent('unread');
  });

  it("notifies of others' new messages in listed channels while the tab is hidden; a click opens the channel, and the title counts down", async () => {
    const { chat } = setup();
    await screen.findByRole('log', { name: 'Messages in Front desk' });
    await waitFor(() => expect(document.title).toBe('(4) Chat · Frontdesk'));
    const stream = FakeEventSource.current();
    act(() => stream.open());

    const news = chat.publish('posted', message(60, 2, { body: 'Two laksa for table 9' }));
    act(() => stream.emit('chat', news, '20'));
    act(() => stream.emit('chat', news, '20')); // a replay is old news
    act(() => stream.emit('chat', chat.publish('posted', message(61, 3, { mine: true, body: 'Rota changed' })), '21'));
    notifications.tab.hidden = false;
    act(() => stream.emit('chat', chat.publish('posted', message(62, 3, { body: 'Meeting at 4' })), '22'));
    expect(notifications.shown.map(({ title, body, tag }) => ({ title, body, tag }))).toEqual([{ title: 'Sam Rivera in Kitchen', body: 'Two laksa for table 9', tag: 'chat-2' }]);
    await waitFor(() => expect(document.title).toBe('(6) Chat · Frontdesk'));

    notifications.shown[0]!.click();
    expect(await screen.findByRole('log', { name: 'Messages in Kitchen' })).toHaveTextContent('Two laksa for table 9');
    await waitFor(() => expect(document.title).toBe('(2) Chat · Frontdesk')); // Managers still waits
  });

  it('keeps what is typed while a message is on its way: only the sent text leaves the box', async () => {
    const { user, api } = setup();
    const box = await screen.findByLabelText('Message');
    const held = holdRequests((method, path) => method === 'POST' && path === '/api/chat/channels/1/messages');
    await user.type(box, 'On my way{Enter}');
    // Still sending: the next thought goes in after it (Enter now waits for the first to go).
    await user.type(box, '{Enter}Bringing the keys');
    await held.release();
    expect(await within(thread('Front desk')).findByText('On my way')).toBeInTheDocument();
    await waitFor(() => expect(box).toHaveValue('Bringing the keys'));
    expect(sessionStorage.getItem('frontdesk.draft.1.chat.1')).toBe('Bringing the keys');
    expect(posts(api, '/messages')).toEqual([{ path: '/api/chat/channels/1/messages', body: { body: 'On my way' } }]);
  });

  it('keeps the draft and says why when the server refuses the message (rate limit)', async () => {
    const { user, chat } = setup();
    chat.failNextPost = 429;
    const box = await screen.findByLabelText('Message');
    await user.type(box, 'Anyone there?{Enter}');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are sending messages too fast; wait a few seconds.');
    expect(box).toHaveValue('Anyone there?');
    expect(within(thread('Front desk')).queryByText('Anyone there?')).not.toBeInTheDocument();
    // Sent on a second try; the refusal goes away.
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await within(thread('Front desk')).findByText('Anyone there?')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('counts down near the 2000-character limit and will not send past it', async () => {
    setup();
    const box = await screen.findByLabelText('Message');
    fireEvent.change(box, { target: { value: 'x'.repeat(1950) } });
    expect(screen.getByText('50 characters left')).toBeInTheDocument();
    fireEvent.change(box, { target: { value: 'x'.repeat(2005) } });
    expect(screen.getByText('5 characters over the limit of 2000')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    expect(box).toHaveAttribute('aria-invalid', 'true');
  });

  it('makes http(s) links clickable and shows everything else as the text it is', async () => {
    const chat = venue();
    chat.messages.push(message(14, 1, { body: 'Menu at https://example.com/menu?x=1. Also <b>bold</b> & <img src=x onerror=alert(1)> javascript:alert(1)' }));
    setup('/shell/chat', chat);
    const log = await screen.findByRole('log', { name: 'Messages in Front desk' });
    const link = within(log).getByRole('link', { name: 'https://example.com/menu?x=1' });
    expect(link).toHaveAttribute('href', 'https://example.com/menu?x=1');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(within(log).getByText(/<b>bold<\/b>/)).toBeInTheDocument();
    expect(log.querySelector('b, img')).toBeNull();
    expect(within(log).getAllByRole('link')).toHaveLength(1);
  });

  it('shows a deleted message as deleted, and deletes the reader’s own after a confirmation', async () => {
    const chat = venue();
    chat.messages.push(message(14, 1, { body: '', deleted: true }));
    const { user, api } = setup('/shell/chat', chat);
    const log = await screen.findByRole('log', { name: 'Messages in Front desk' });
    expect(within(log).getByText('This message was deleted')).toBeInTheDocument();

    const own = bubbleOf('Doors are open');
    await user.click(within(own).getByRole('button', { name: 'Delete message' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this message?' });
    expect(dialog).toHaveTextContent('Doors are open');
    await user.click(within(dialog).getByRole('button', { name: 'Delete message' }));
    await waitFor(() => expect(within(log).getAllByText('This message was deleted')).toHaveLength(2));
    expect(within(log).queryByText('Doors are open')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/chat/messages/12']);
  });

  it('edits the reader’s own message in place and marks it edited; others’ messages offer no edit to staff', async () => {
    const { user, api } = setup('/shell/chat', venue(), { staff: true });
    await screen.findByRole('log', { name: 'Messages in Front desk' });
    expect(within(bubbleOf('Delivery at the back door')).queryByRole('button')).not.toBeInTheDocument();
    await user.click(within(bubbleOf('Doors are open')).getByRole('button', { name: 'Edit message' }));
    const box = screen.getByLabelText('Edit message');
    expect(box).toHaveFocus();
    await user.clear(box);
    await user.type(box, 'Doors open at 7{Enter}');
    const edited = await within(thread('Front desk')).findByText('Doors open at 7');
    expect(edited.closest('li')).toHaveTextContent('(edited)');
    expect(api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body)).toEqual([{ body: 'Doors open at 7' }]);
  });

  it('opens the thread at its newest message (the end of the log)', async () => {
    const scrolled = jest.spyOn(Element.prototype, 'scrollTop', 'set');
    jest.spyOn(Element.prototype, 'scrollHeight', 'get').mockImplementation(function (this: Element) {
      return this.getAttribute('role') === 'log' ? 2000 : 0;
    });
    setup();
    const log = await screen.findByRole('log', { name: 'Messages in Front desk' });
    await waitFor(() => expect(scrolled).toHaveBeenCalledWith(2000));
    expect(scrolled.mock.contexts[scrolled.mock.calls.findIndex(([top]) => top === 2000)]).toBe(log);
  });

  it('follows live messages at the bottom; scrolled back, it offers a jump to the new ones instead', async () => {
    const { user, chat } = setup();
    const log = await screen.findByRole('log', { name: 'Messages in Front desk' });
    // The thread's first scroll to its end runs in the next frame (before the browser's first paint).
    await nextFrame();
    const box = layOut(log);
    const stream = FakeEventSource.current();

    // At the newest message: a new one is followed.
    act(() => stream.emit('chat', chat.publish('posted', message(40, 1, { body: 'Parcel for Ada' })), '1'));
    expect(await within(log).findByText('Parcel for Ada')).toBeInTheDocument();
    expect(box.top).toBe(box.bottom);
    expect(screen.queryByRole('button', { name: /new message/ })).not.toBeInTheDocument();

    // Scrolled back to read: the view stays put and says what arrived.
    box.scrollTo(600);
    act(() => stream.emit('chat', chat.publish('posted', message(41, 1, { body: 'Ada picked it up' })), '2'));
    const jump = await screen.findByRole('button', { name: '1 new message' });
    expect(box.top).toBe(600);
    act(() => stream.emit('chat', chat.publish('posted', message(42, 1, { body: 'Thanks!' })), '3'));
    expect(await screen.findByRole('button', { name: '2 new messages' })).toBe(jump);

    await user.click(jump);
    expect(box.top).toBe(box.bottom);
    expect(screen.queryByRole('button', { name: /new message/ })).not.toBeInTheDocument();
    expect(log).toHaveFocus();
  });

  it('counts live messages of other channels as unread, and edits and deletions replace the message', async () => {
    const { chat } = setup();
    const log = await screen.findByRole('log', { name: 'Messages in Front desk' });
    const stream = FakeEventSource.current();
    const drill = chat.publish('posted', message(50, 3, { body: 'Fire drill at 3' }));
    act(() => stream.emit('chat', drill, '1'));
    await waitFor(() => expect(channelLink('Managers')).toHaveTextContent('2 unread'));
    expect(channelLink('Managers')).toHaveTextContent('Sam Rivera: Fire drill at 3');
    expect(screen.getByText(/across your channels/)).toHaveTextContent('5 unread messages');
    // The same event again (a resumed stream) is not counted twice.
    act(() => stream.emit('chat', drill, '1'));
    expect(channelLink('Managers')).toHaveTextContent('2 unread');

    act(() => stream.emit('chat', chat.publish('edited', message(13, 1, { body: 'Delivery at the front', editedAt: new Date().toISOString(), minutesAgo: 10 })), '2'));
    expect(await within(log).findByText('Delivery at the front')).toBeInTheDocument();
    expect(bubbleOf('Delivery at the front')).toHaveTextContent('(edited)');
    act(() => stream.emit('chat', chat.publish('deleted', message(13, 1, { minutesAgo: 10 })), '3'));
    expect(await within(log).findByText('This message was deleted')).toBeInTheDocument();
    expect(within(log).queryByText('Delivery at the front')).not.toBeInTheDocument();
  });

  it('loads older messages from the top of the thread, once, until the start', async () => {
    const chat = fakeChat({
      channels: [channel(1, { name: 'Front desk' })],
      messages: Array.from({ length: 45 }, (_, i) => message(i + 1, 1, { body: `Note ${i + 1}`, minutesAgo: 50 - i })),
      reads: { 1: 45 },
    });
    const { api } = setup('/shell/chat', chat);
    const log = await screen.findByRole('log', { name: 'Messages in Front desk' });
    expect(within(log).getAllByRole('listitem')).toHaveLength(30);
    expect(within(log).queryByText('Note 15')).not.toBeInTheDocument();
    // The thread's first scroll to its end runs in the next frame (before the browser's first paint).
    await nextFrame();
    const box = layOut(log, { perMessage: 60 });
    box.scrollTo(40);
    expect(await within(log).findByText('Note 15')).toBeInTheDocument();
    expect(within(log).getAllByRole('listitem')).toHaveLength(45);
    // The reader's place is kept: what was 40 px from the top is now below the 15 messages put in above it.
    expect(box.top).toBe(40 + 15 * 60);
    expect(within(log).getByText('This is the start of Front desk.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.includes('before=')).map((c) => c.path)).toEqual(['/api/chat/channels/1/messages?before=16']);
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument();
  });

  it('says why a thread cannot be read, with a retry, instead of loading it for ever', async () => {
    const refused = handle(chatApi.listMessages, ({ params }) => (params.id === 1 ? problem(404, 'Not Found', 'No channel with id 1.') : passOn));
    const chat = venue();
    fakeBff([refused, ...chat.handlers], { signedIn: true });
    renderApp('/shell/chat');
    expect(await screen.findByText(/Could not read Front desk: No channel with id 1\./)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Try again/ })).toBeInTheDocument();
    expect(thread('Front desk')).not.toHaveTextContent('Loading messages…');
  });

  it('says so when a channel has no messages yet', async () => {
    setup('/shell/chat', fakeChat({ channels: [channel(1, { name: 'Front desk' })] }));
    expect(await screen.findByText('No messages yet — say hello')).toBeInTheDocument();
  });

  it('says plainly when no channel is open to the reader', async () => {
    setup('/shell/chat', fakeChat(), { staff: true });
    expect(await screen.findByRole('heading', { name: 'No channels yet' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New channel' })).not.toBeInTheDocument();
  });

  it('lets an admin open a channel (a taken name is said under the name) and archive one', async () => {
    const { user, router, chat } = setup();
    await screen.findByRole('log', { name: 'Messages in Front desk' });
    await user.click(screen.getByRole('button', { name: 'New channel' }));
    const dialog = await screen.findByRole('dialog', { name: 'New channel' });
    await user.type(within(dialog).getByLabelText('Name'), 'kitchen');
    await user.click(within(dialog).getByRole('button', { name: 'Open channel' }));
    expect(await within(dialog).findByText('A channel named kitchen already exists')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Name'));
    await user.type(within(dialog).getByLabelText('Name'), 'Lost property');
    await user.click(within(dialog).getByLabelText('Runners may read and write here'));
    await user.click(within(dialog).getByRole('button', { name: 'Open channel' }));
    await waitFor(() => expect(router.state.location.search).toBe('?channel=4'));
    expect(await screen.findByRole('log', { name: 'Messages in Lost property' })).toBeInTheDocument();
    expect(chat.channels.at(-1)).toMatchObject({ name: 'Lost property', runnersMayJoin: true });

    await user.click(screen.getByRole('button', { name: 'Manage channels' }));
    const manage = await screen.findByRole('dialog', { name: 'Manage channels' });
    await user.click(await within(manage).findByRole('button', { name: 'Archive Managers' }));
    expect(await within(manage).findByRole('button', { name: 'Unarchive Managers' })).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('navigation', { name: 'Channels' })).queryByRole('link', { name: /Managers/ })).not.toBeInTheDocument());
  });

  it('switches layout keeping the channel', async () => {
    const { user, router } = setup('/shell/chat?channel=3');
    await screen.findByRole('log', { name: 'Messages in Managers' });
    const layouts = screen.getByRole('navigation', { name: 'Chat layout' });
    expect(within(layouts).getByRole('link', { name: 'List' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(layouts).getByRole('link', { name: 'Split' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/chat/flex'));
    expect(router.state.location.search).toBe('?channel=3');
    expect(await screen.findByRole('log', { name: 'Messages in Managers' })).toBeInTheDocument();
  });
});
