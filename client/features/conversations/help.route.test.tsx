import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RequestHandler } from 'msw';
import { conversationsApi } from '@contracts/conversations.contract';
import { ptApi } from '@contracts/pt.contract';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { fieldProblem, handle, problem, server } from '@/test-support/test-server';
import { SAM, conversation, fakeConversations, message, type FakeConversations } from '@/test-support/conversations.fake-api';

fakeEventSourceEachTest();
beforeEach(() => window.localStorage.clear());
afterEach(() => {
  jest.restoreAllMocks();
  sessionStorage.clear(); // drafts
});

function setup(path = '/help?table=4', fake: FakeConversations = fakeConversations({ viewer: 'guest' }), extra: RequestHandler[] = []) {
  const api = fakeBff([...fake.handlers, ...extra]);
  const view = renderApp(path);
  return { ...view, api, fake, user: userEvent.setup() };
}

const starts = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'POST' && c.path === '/api/conversations').map((c) => c.body);
const thread = () => screen.getByRole('log', { name: 'Messages with the front desk' });

async function ask(user: ReturnType<typeof userEvent.setup>, { name = 'Ana Lima', text = 'Could we get more napkins?' } = {}) {
  await user.type(await screen.findByLabelText('Your name'), name);
  await user.type(screen.getByLabelText('How can we help?'), text);
  await user.click(screen.getByRole('button', { name: 'Send' }));
}

describe('/help (guests)', () => {
  it('asks with the table from the link, then shows the thread on the same page and remembers it', async () => {
    const { api, user } = setup();
    expect(await screen.findByRole('heading', { name: 'Need help?', level: 1 })).toBeInTheDocument();
    expect(screen.getByLabelText('Table number')).toHaveValue('4');

    await ask(user);
    const heading = await screen.findByRole('heading', { name: 'We have your request' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(starts(api)).toEqual([{ name: 'Ana Lima', table: 4, email: null, body: 'Could we get more napkins?' }]);

    const mine = within(thread()).getAllByRole('listitem').at(-1)!;
    expect(mine).toHaveTextContent('You');
    expect(mine).toHaveTextContent('Could we get more napkins?');
    expect(mine).toHaveClass('msg-out');
    expect(screen.getByText('The front desk has your message and will answer here.')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('frontdesk.help.conversations')!)).toEqual([{ id: 1, startedAt: expect.any(String) }]);
    expect(FakeEventSource.current().url).toBe('/api/conversations/1/stream');
  });

  it('says what is missing before sending, and shows the server’s field errors under their fields', async () => {
    const { api, user } = setup('/help');
    await user.click(await screen.findByRole('button', { name: 'Send' }));
    expect(screen.getByLabelText('Your name')).toHaveAccessibleDescription('Enter your name');
    expect(screen.getByLabelText('How can we help?')).toHaveAccessibleDescription('Write a message first');
    expect(starts(api)).toEqual([]);

    await user.type(screen.getByLabelText('Your name'), 'Ben');
    await user.type(screen.getByLabelText('How can we help?'), 'Where are the lockers?');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(screen.getByLabelText('Table number')).toHaveAccessibleDescription('Give your table number or an email address so we can find you It is on the sign on your table.');
    expect(starts(api)).toEqual([]);

    // The server refuses what the browser let through: its messages land on the fields.
    server.use(handle(conversationsApi.start, () => fieldProblem([{ path: 'body.email', message: 'We cannot write to this address' }], 'The request is not valid.'), { once: true }));
    await user.type(screen.getByLabelText('Email'), 'ben@mail.example');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('We cannot write to this address'));
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Email')).toHaveFocus();
    expect(starts(api)).toEqual([{ name: 'Ben', table: null, email: 'ben@mail.example', body: 'Where are the lockers?' }]);
  });

  it('says so when too many requests come from here (429), keeping what was typed', async () => {
    const { user } = setup();
    server.use(handle(conversationsApi.start, () => problem(429, 'Too Many Requests', 'Too many help requests from this address; try again in a minute.'), { once: true }));
    await ask(user);
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many help requests from this address; try again in a minute.');
    expect(screen.getByLabelText('How can we help?')).toHaveValue('Could we get more napkins?');
  });

  it('shows staff replies and status changes live, and sends more messages', async () => {
    const { api, user, fake } = setup();
    await ask(user);
    await screen.findByRole('heading', { name: 'We have your request' });
    const stream = FakeEventSource.current();
    act(() => stream.open());
    expect(screen.getByText('Live', { selector: '.live-status span' })).toBeInTheDocument();

    const reply = fake.staffWrites(1, 'On its way! See https://example.com/menu for dessert.');
    act(() => stream.emit('conversation', reply, '1'));
    const answer = await within(thread()).findByText(/On its way!/);
    expect(answer.closest('li')).toHaveClass('msg-in');
    expect(answer.closest('li')).toHaveTextContent('Sam Rivera');
    expect(within(answer).getByRole('link', { name: 'https://example.com/menu' })).toHaveAttribute('href', 'https://example.com/menu');
    expect(screen.getByText('Sam Rivera from the front desk is on it.')).toBeInTheDocument();
    act(() => stream.emit('conversation', reply, '1')); // the same event again shows once
    expect(within(thread()).getAllByText(/On its way!/)).toHaveLength(1);

    act(() => stream.emit('conversation', fake.update(1, { status: 'resolved' }), '2'));
    expect(await screen.findByText('Resolved', { selector: '.guest-status .badge' })).toBeInTheDocument();
    expect(screen.getByText(/The front desk marked this resolved/)).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Write to the front desk' }), 'One more thing{Enter}');
    expect(await within(thread()).findByText('One more thing')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/api/conversations/1/messages').map((c) => c.body)).toEqual([{ body: 'One more thing', as: 'guest' }]);
    // Writing reopened it (the thread reads its state again).
    expect(await screen.findByText('Open', { selector: '.guest-status .badge' })).toBeInTheDocument();
  });

  it('keeps a half-written first message when the guest looks at another page and comes back, and not once it is sent', async () => {
    const { user, router } = setup();
    await user.type(await screen.findByLabelText('Your name'), 'Ana Lima');
    await user.type(screen.getByLabelText('How can we help?'), 'Could we get');
    await act(() => router.navigate('/about'));
    await act(() => router.navigate('/help?table=4'));
    expect(await screen.findByLabelText('How can we help?')).toHaveValue('Could we get');
    await user.type(screen.getByLabelText('How can we help?'), ' more napkins?');
    await user.type(screen.getByLabelText('Your name'), 'Ana Lima');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByRole('heading', { name: 'We have your request' });
    await user.click(screen.getByRole('button', { name: 'Start a new request' }));
    expect(screen.getByLabelText('How can we help?')).toHaveValue('');
  });

  it('keeps a half-written follow-up when the guest looks at another page and comes back', async () => {
    const { user, router } = setup();
    await ask(user);
    await screen.findByRole('heading', { name: 'We have your request' });
    await user.type(screen.getByRole('textbox', { name: 'Write to the front desk' }), 'Also a high chair');
    await act(() => router.navigate('/about'));
    await act(() => router.navigate('/help'));
    expect(await screen.findByRole('textbox', { name: 'Write to the front desk' })).toHaveValue('Also a high chair');
  });

  it('shows the remembered conversation again after a reload, and starts a new request on demand', async () => {
    window.localStorage.setItem('frontdesk.help.conversations', JSON.stringify([{ id: 3, startedAt: '2025-03-01T09:30:00.000Z' }]));
    window.localStorage.setItem('frontdesk.help.guest', JSON.stringify({ name: 'Ana Lima', table: 7, email: null }));
    const fake = fakeConversations({
      viewer: 'guest',
      guestOwns: [3],
      conversations: [conversation(3, { guestName: 'Ana Lima', messages: [message(3, 'Is there a high chair?', { guestName: 'Ana Lima', minutesAgo: 20 }), message(3, '<b>Yes</b>, bringing one.', { staff: SAM, minutesAgo: 18 })] })],
    });
    const { user } = setup('/help', fake);
    expect(await screen.findByRole('heading', { name: 'Your request' })).toBeInTheDocument();
    expect(within(thread()).getByText('<b>Yes</b>, bringing one.')).toBeInTheDocument();
    expect(thread().querySelector('b')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Start a new request' }));
    expect(screen.getByLabelText('Your name')).toHaveValue('Ana Lima');
    expect(screen.getByLabelText('Table number')).toHaveValue('7');
    await user.click(screen.getByRole('button', { name: 'Back to your request' }));
    expect(await screen.findByRole('heading', { name: 'Your request' })).toBeInTheDocument();
  });

  it('forgets a conversation this device can no longer open, and offers the form', async () => {
    window.localStorage.setItem('frontdesk.help.conversations', JSON.stringify([{ id: 9, startedAt: '2025-03-01T09:30:00.000Z' }]));
    setup('/help', fakeConversations({ viewer: 'guest', conversations: [conversation(9)] }));
    expect(await screen.findByText(/We could not open your earlier request on this device any more/)).toBeInTheDocument();
    expect(screen.getByLabelText('Your name')).toBeInTheDocument();
    expect(JSON.parse(window.localStorage.getItem('frontdesk.help.conversations')!)).toEqual([]);
  });

  it('is one tap away from the diner menu, with the table filled in', async () => {
    const menu = handle(ptApi.menu, () => ({ currency: 'EUR', tables: 20, timeZone: 'UTC', stalls: [] }));
    const { user, router } = setup('/pt/diner/menu?table=4', fakeConversations({ viewer: 'guest' }), [menu]);
    await user.click(await screen.findByRole('link', { name: 'Need help?' }));
    expect(await screen.findByRole('heading', { name: 'Need help?', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/help?table=4');
    expect(screen.getByLabelText('Table number')).toHaveValue('4');
  });
});
