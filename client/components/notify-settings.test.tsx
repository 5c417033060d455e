import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { NotifySettings } from './notify-settings';
import { notifyChoices } from '@/lib/notify';

/** A browser's Notification API: what was shown, and the permission it holds (and would answer when asked). */
class FakeNotification {
  static permission: NotificationPermission = 'default';
  static answer: NotificationPermission = 'granted';
  static asked = 0;
  static shown: FakeNotification[] = [];
  static requestPermission = jest.fn(async () => {
    FakeNotification.asked += 1;
    FakeNotification.permission = FakeNotification.answer;
    return FakeNotification.answer;
  });
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    public title: string,
    public options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

/** Counts the oscillators started: the chime is two. */
let tones = 0;
class FakeAudio {
  state = 'running';
  currentTime = 0;
  destination = {};
  createGain = () => ({ gain: { setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} }, connect: (next: unknown) => next });
  createOscillator = () => ({ type: 'sine', frequency: { value: 0 }, connect: (next: unknown) => next, start: () => void (tones += 1), stop: () => {} });
}

const scope = window as unknown as { Notification?: unknown; AudioContext?: unknown };

beforeEach(() => {
  FakeNotification.permission = 'default';
  FakeNotification.answer = 'granted';
  FakeNotification.asked = 0;
  FakeNotification.shown = [];
  scope.Notification = FakeNotification;
  scope.AudioContext = FakeAudio;
  tones = 0;
  window.localStorage.clear();
});
afterEach(() => {
  delete scope.Notification;
  delete scope.AudioContext;
});

describe('NotifySettings', () => {
  it('remembers the choices on this device and asks the browser only when notifications are turned on', async () => {
    const user = userEvent.setup();
    const view = render(<NotifySettings />);
    const sound = screen.getByRole('switch', { name: 'Play a sound' });
    const alerts = screen.getByRole('switch', { name: 'Show browser notifications' });
    expect(sound).not.toBeChecked();
    expect(alerts).not.toBeChecked();
    expect(FakeNotification.asked).toBe(0);

    await user.click(sound);
    expect(sound).toBeChecked();
    expect(tones).toBe(2); // a sample of what it sounds like
    await user.click(alerts);
    await waitFor(() => expect(alerts).toBeChecked());
    expect(FakeNotification.asked).toBe(1);
    expect(JSON.parse(window.localStorage.getItem('notify.choices')!)).toEqual({ sound: true, alerts: true });

    // Another visit on this device finds them on.
    view.unmount();
    render(<NotifySettings />);
    expect(screen.getByRole('switch', { name: 'Play a sound' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Show browser notifications' })).toBeChecked();
  });

  it('says "Blocked by the browser" when the browser refuses, and leaves notifications off', async () => {
    const user = userEvent.setup();
    FakeNotification.answer = 'denied';
    render(<NotifySettings />);
    const alerts = screen.getByRole('switch', { name: 'Show browser notifications' });
    await user.click(alerts);
    expect(await screen.findByText(/Blocked by the browser/)).toBeInTheDocument();
    expect(alerts).not.toBeChecked();
    expect(alerts).toBeDisabled();
    expect(notifyChoices.read().alerts).toBe(false);
  });
});
