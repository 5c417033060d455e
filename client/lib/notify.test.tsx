import { fakeAudioEachTest, fakeNotificationApiEachTest } from '@/test-support/test-utils';
import { notifyChoices, showNotice, type Notice } from './notify';

const notices = fakeNotificationApiEachTest();
const audio = fakeAudioEachTest();

let hidden = false;
beforeEach(() => {
  hidden = false;
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  window.localStorage.clear();
});

const NEW_ORDER: Notice = { title: 'New order 7', body: 'Table 3', tag: 'order-7', url: '/pt/runner' };

describe('showNotice', () => {
  it('shows a browser notification only while the tab is hidden, and only once opted in with permission', () => {
    const go = jest.fn();
    notifyChoices.write({ sound: false, alerts: true });
    notices.permission = 'granted';

    showNotice(NEW_ORDER, go);
    expect(notices.shown).toHaveLength(0); // on screen: the page shows it

    hidden = true;
    showNotice(NEW_ORDER, go);
    expect(notices.shown.map((n) => [n.title, n.options.body, n.options.tag])).toEqual([['New order 7', 'Table 3', 'order-7']]);

    // A click brings the tab forward at the news.
    const focus = jest.spyOn(window, 'focus').mockImplementation(() => undefined);
    notices.shown[0]!.onclick?.();
    expect(focus).toHaveBeenCalled();
    expect(go).toHaveBeenCalledWith('/pt/runner');
    expect(notices.shown[0]!.closed).toBe(true);
    expect(audio.tones).toBe(0); // sound stayed off
  });

  it('shows none when the browser denied it or the person did not opt in', () => {
    hidden = true;
    notifyChoices.write({ sound: false, alerts: true });
    notices.permission = 'denied';
    showNotice(NEW_ORDER, jest.fn());
    notices.permission = 'granted';
    notifyChoices.write({ sound: false, alerts: false });
    showNotice(NEW_ORDER, jest.fn());
    expect(notices.shown).toHaveLength(0);
  });

  it('chimes when sound is on (visible or not), or when the caller says so', () => {
    notifyChoices.write({ sound: true, alerts: false });
    showNotice(NEW_ORDER, jest.fn());
    expect(audio.tones).toBe(2);
    showNotice(NEW_ORDER, jest.fn(), { sound: false });
    expect(audio.tones).toBe(2);
    notifyChoices.write({ sound: false, alerts: false });
    showNotice(NEW_ORDER, jest.fn(), { sound: true });
    expect(audio.tones).toBe(4);
  });
});
