import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { channel, fakeChat, message, type FakeChat } from '@/test-support/chat.fake-api';

fakeEventSourceEachTest();
afterEach(() => {
  jest.restoreAllMocks();
  sessionStorage.clear(); // drafts
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

function venue(): FakeChat {
  return fakeChat({
    channels: [channel(1, { name: 'Front desk' }), channel(2, { name: 'Kitchen', topic: 'Orders and runners' }), channel(3, { name: 'Managers' })],
    messages: [
      message(11, 1, { body: 'Doors are open', mine: true }),
      message(21, 2, { body: 'Laksa is sold out' }),
      message(22, 2, { body: 'Table 4 waiting' }),
      message(31, 3, { body: 'Rota is up' }),
    ],
    reads: { 1: 11, 3: 31 },
  });
}

/**
 * The browser's IntersectionObserver, reporting the tiles named in `offScreen` as scrolled out of
 * view (jsdom lays nothing out, so it has none).
 */
function tilesOffScreen(...offScreen: string[]) {
  class FakeIntersectionObserver {
    constructor(private readonly report: (entries: { isIntersecting: boolean }[]) => void) {}
    observe(element: Element) {
      const name = element.getAttribute('aria-label') ?? '';
      this.report([{ isIntersecting: !offScreen.some((tile) => name === `Messages in ${tile}`) }]);
    }
    disconnect() {}
  }
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeIntersectionObserver;
}

function setup(chat: FakeChat = venue()) {
  const api = fakeBff(chat.handlers, { signedIn: true });
  const view = renderApp('/shell/chat/grid');
  return { ...view, api, chat, user: userEvent.setup() };
}

const tile = (name: string) => screen.getByRole('region', { name });
const reads = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/read')).map((c) => c.path);

describe('/shell/chat/grid', () => {
  it('shows every channel as a tile with its latest messages and a link to open it', async () => {
    setup();
    await screen.findByRole('list', { name: 'Channels' });
    expect(within(tile('Front desk')).getByRole('log', { name: 'Messages in Front desk' })).toHaveTextContent('Doors are open');
    expect(within(tile('Front desk')).getByText('Doors are open').closest('li')).toHaveClass('is-mine');
    expect(within(tile('Kitchen')).getByRole('log')).toHaveTextContent('Table 4 waiting');
    expect(tile('Kitchen')).toHaveTextContent('Orders and runners');
    expect(within(tile('Managers')).getByRole('link', { name: 'Open Managers' })).toHaveAttribute('href', '/shell/chat?channel=3');
    expect(within(screen.getByRole('navigation', { name: 'Chat layout' })).getByRole('link', { name: 'Grid' })).toHaveAttribute('aria-current', 'page');
  });

  it('marks read the tiles on screen, and keeps the count of one scrolled out of view', async () => {
    tilesOffScreen('Kitchen');
    const chat = venue();
    chat.messages.push(message(32, 3, { body: 'Fire drill at 3' }));
    const { api } = setup(chat);
    await screen.findByRole('list', { name: 'Channels' });
    await waitFor(() => expect(reads(api)).toEqual(['/api/chat/channels/3/read']));
    await waitFor(() => expect(tile('Managers')).not.toHaveTextContent('unread'));
    expect(tile('Kitchen')).toHaveTextContent('2 unread');
    expect(screen.getByText(/across your channels/)).toHaveTextContent('2 unread messages across your channels');
  });

  it('sends from a tile’s own composer into that channel, and shows live messages in their tile', async () => {
    tilesOffScreen('Kitchen');
    const { user, api, chat } = setup();
    await screen.findByRole('list', { name: 'Channels' });
    await user.type(within(tile('Managers')).getByLabelText('Message'), 'Rota looks good{Enter}');
    expect(await within(tile('Managers')).findByText('Rota looks good')).toBeInTheDocument();
    expect(within(tile('Kitchen')).queryByText('Rota looks good')).not.toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'POST' && c.path.endsWith('/messages')).map((c) => c.path)).toEqual(['/api/chat/channels/3/messages']);

    act(() => FakeEventSource.current().emit('chat', chat.publish('posted', message(60, 2, { body: 'Runner needed' })), '5'));
    expect(await within(tile('Kitchen')).findByText('Runner needed')).toBeInTheDocument();
    await waitFor(() => expect(tile('Kitchen')).toHaveTextContent('3 unread'));
  });

  it('says plainly when there are no channels', async () => {
    setup(fakeChat());
    expect(await screen.findByRole('heading', { name: 'No channels yet' })).toBeInTheDocument();
  });
});
