import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import * as v from 'valibot';
import { playChime } from './chime-sound';
import { storedValue } from './stored-value';

/**
 * Staff notifications: a chime and a browser notification when something needs a person (a guest
 * asks for help, a chat message, a new order). Both are off until someone on this device turns them
 * on (a sound or a pop-up nobody chose is a nuisance), and remembered per device. A browser
 * notification is shown only while the tab is hidden: on screen, the page itself shows the news.
 */
export type NotifyChoices = { sound: boolean; alerts: boolean };

export const notifyChoices = storedValue<NotifyChoices>('notify.choices', v.object({ sound: v.boolean(), alerts: v.boolean() }), { sound: false, alerts: false });

/** The browser's answer about notifications, or `unsupported` where there is no Notification API. */
export type AlertPermission = NotificationPermission | 'unsupported';

export function alertPermission(): AlertPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * Asks the browser for permission to notify; call it only from a click (browsers ignore, or hold
 * against the site, a prompt nobody asked for). Once answered, the browser does not ask again.
 */
export async function askAlertPermission(): Promise<AlertPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  try {
    // Older Safari answers only through a callback and returns undefined: read the outcome afterwards.
    return (await Notification.requestPermission()) ?? Notification.permission;
  } catch {
    return Notification.permission;
  }
}

/** What happened, and where to look at it. `tag` collapses repeats (one notification per channel, per order). */
export type Notice = { title: string; body: string; tag: string; url: string };

/** `sound` overrides the device's sound choice (a kitchen screen has its own). */
export type NoticeOptions = { sound?: boolean };

/**
 * Tells the person on this device about `notice`, as far as they opted in: the chime, and a browser
 * notification while the tab is hidden; clicking it brings the tab forward at `url`. Callers pass
 * only what others did: the person's own actions are never news to them.
 */
export function showNotice(notice: Notice, go: (url: string) => void, options: NoticeOptions = {}): void {
  const choices = notifyChoices.read();
  if (options.sound ?? choices.sound) playChime();
  if (choices.alerts && document.hidden) showBrowserNotification(notice, () => go(notice.url));
}

/**
 * A browser notification, where the person allowed them (the caller decides it is wanted: the tab
 * hidden, an opted-in choice); a click brings the tab forward and runs `onClick`.
 */
export function showBrowserNotification(notice: Pick<Notice, 'title' | 'body' | 'tag'>, onClick: () => void = () => undefined): void {
  if (alertPermission() !== 'granted') return;
  try {
    const shown = new Notification(notice.title, { body: notice.body, tag: notice.tag });
    shown.onclick = () => {
      window.focus();
      onClick();
      shown.close();
    };
  } catch {
    // Chrome on Android refuses `new Notification` (it wants a service worker): the sound has to do there.
  }
}

/** `showNotice` for a component: a click on the notification navigates inside the app, without a reload. */
export function useNotify(): (notice: Notice, options?: NoticeOptions) => void {
  const navigate = useNavigate();
  return useCallback((notice: Notice, options?: NoticeOptions) => showNotice(notice, (url) => void navigate(url), options), [navigate]);
}
