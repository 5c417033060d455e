import { notifyChoices, showNotice, type Notice } from './notify';

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

let hidden = false;
const scope = window as unknown as { Notification?: unknown; AudioContext?: unknown };

beforeEach(() => {
  FakeNotification.permission = 'default';
  FakeNotification.answer = 'granted';
  FakeNotification.asked = 0;
  FakeNotification.shown = [];
  scope.Notification = FakeNotification;
  scope.AudioContext = FakeAudio;
  tones = 0;
  hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  window.localStorage.clear();
});
afterEach(() => {
  delete scope.Notification;
  delete scope.AudioContext;
});

const NEW_ORDER: Notice = { title: 'New order 7', body: 'Table 3', tag: 'order-7', url: '/pt/runner' };

describe('showNotice', () => {
  it('shows a browser notification only while the tab is hidden, and only once opted in with permission', () => {
    const go = jest.fn();
    notifyChoices.write({ sound: false, alerts: true });
    FakeNotification.permission = 'granted';

    showNotice(NEW_ORDER, go);
    expect(FakeNotification.shown).toHaveLength(0); // on screen: the page shows it

    hidden = true;
    showNotice(NEW_ORDER, go);
    expect(FakeNotification.shown.map((n) => [n.title, n.options.body, n.options.tag])).toEqual([['New order 7', 'Table 3', 'order-7']]);

    // A click brings the tab forward at the news.
    const focus = jest.spyOn(window, 'focus').mockImplementation(() => undefined);
    FakeNotification.shown[0]!.onclick?.();
    expect(focus).toHaveBeenCalled();
    expect(go).toHaveBeenCalledWith('/pt/runner');
    expect(FakeNotification.shown[0]!.closed).toBe(true);
    expect(tones).toBe(0); // sound stayed off
  });

  it('shows none when the browser denied it or the person did not opt in', () => {
    hidden = true;
    notifyChoices.write({ sound: false, alerts: true });
    FakeNotification.permission = 'denied';
    showNotice(NEW_ORDER, jest.fn());
    FakeNotification.permission = 'granted';
    notifyChoices.write({ sound: false, alerts: false });
    showNotice(NEW_ORDER, jest.fn());
    expect(FakeNotification.shown).toHaveLength(0);
  });

  it('chimes when sound is on (visible or not), or when the caller says so', () => {
    notifyChoices.write({ sound: true, alerts: false });
    showNotice(NEW_ORDER, jest.fn());
    expect(tones).toBe(2);
    showNotice(NEW_ORDER, jest.fn(), { sound: false });
    expect(tones).toBe(2);
    notifyChoices.write({ sound: false, alerts: false });
    showNotice(NEW_ORDER, jest.fn(), { sound: true });
    expect(tones).toBe(4);
  });
});
