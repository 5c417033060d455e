import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { channel, fakeChat, message } from '@/test-support/chat.fake-api';
import { LIST_WIDTH_KEY } from './components/split-handle';

fakeEventSourceEachTest();
afterEach(() => {
  jest.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom has no PointerEvent: a MouseEvent with a pointer id stands in, so drags carry their clientX.
beforeAll(() => {
  class TestPointerEvent extends MouseEvent {
    readonly pointerId: number;
    constructor(type: string, init: MouseEventInit & { pointerId?: number } = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
    }
  }
  (globalThis as { PointerEvent?: unknown }).PointerEvent = TestPointerEvent;
});

function setup(path = '/shell/chat/flex') {
  const chat = fakeChat({
    channels: [channel(1, { name: 'Front desk' }), channel(2, { name: 'Kitchen' })],
    messages: [message(11, 1, { body: 'Doors are open' }), message(21, 2, { body: 'Laksa is sold out' })],
    reads: { 1: 11, 2: 21 },
  });
  const api = fakeBff(chat.handlers, { signedIn: true });
  const view = renderApp(path);
  return { ...view, api, chat, user: userEvent.setup() };
}

const layoutOf = (separator: HTMLElement) => separator.closest<HTMLElement>('.chat-layout')!;

describe('/shell/chat/flex', () => {
  it('puts a keyboard-operable separator between the channels and the thread, and remembers the width', async () => {
    const { user } = setup('/shell/chat/flex?channel=2');
    expect(await screen.findByRole('log', { name: 'Messages in Kitchen' })).toHaveTextContent('Laksa is sold out');
    const separator = screen.getByRole('separator', { name: 'Resize the channel list' });
    expect(separator).toHaveAttribute('aria-orientation', 'vertical');
    expect(separator).toHaveAttribute('aria-controls', screen.getByRole('navigation', { name: 'Channels' }).id);
    expect(separator).toHaveAttribute('aria-valuenow', '300');

    separator.focus();
    await user.keyboard('{ArrowRight}');
    expect(separator).toHaveAttribute('aria-valuenow', '316');
    expect(layoutOf(separator).style.getPropertyValue('--chat-list-width')).toBe('316px');
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(separator).toHaveAttribute('aria-valuenow', '252');
    await user.keyboard('{End}');
    expect(separator).toHaveAttribute('aria-valuenow', '520');
    await user.keyboard('{Home}');
    expect(separator).toHaveAttribute('aria-valuenow', '180');
    expect(localStorage.getItem(LIST_WIDTH_KEY)).toBe('180');
    // Channel links keep to this layout.
    expect(within(screen.getByRole('navigation', { name: 'Channels' })).getByRole('link', { name: /Front desk/ })).toHaveAttribute('href', '/shell/chat/flex?channel=1');
  });

  it('follows a drag and keeps the width it ends at', async () => {
    setup();
    const separator = await screen.findByRole('separator', { name: 'Resize the channel list' });
    fireEvent.pointerDown(separator, { clientX: 300, button: 0, pointerId: 1 });
    fireEvent.pointerMove(separator, { clientX: 340, pointerId: 1 });
    expect(separator).toHaveAttribute('aria-valuenow', '340');
    expect(localStorage.getItem(LIST_WIDTH_KEY)).toBeNull();
    fireEvent.pointerMove(separator, { clientX: 2000, pointerId: 1 });
    fireEvent.pointerUp(separator, { clientX: 2000, pointerId: 1 });
    expect(separator).toHaveAttribute('aria-valuenow', '520');
    expect(localStorage.getItem(LIST_WIDTH_KEY)).toBe('520');
    // Moves after the drag ended change nothing.
    fireEvent.pointerMove(separator, { clientX: 200, pointerId: 1 });
    expect(separator).toHaveAttribute('aria-valuenow', '520');
  });

  it('starts at the width remembered from the last visit (an unreadable one falls back)', async () => {
    localStorage.setItem(LIST_WIDTH_KEY, '240');
    const { unmount } = setup();
    expect(await screen.findByRole('separator', { name: 'Resize the channel list' })).toHaveAttribute('aria-valuenow', '240');
    unmount();
    localStorage.setItem(LIST_WIDTH_KEY, 'wide');
    setup();
    await waitFor(() => expect(screen.getByRole('separator', { name: 'Resize the channel list' })).toHaveAttribute('aria-valuenow', '300'));
  });
});
