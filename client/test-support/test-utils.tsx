import { act, render } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import type { RouteObject } from 'react-router';
import { http, type RequestHandler } from 'msw';
import { authApi, type SessionUser } from '@contracts/auth.contract';
import { gymApi } from '@contracts/gym.contract';
import { chatApi } from '@contracts/chat.contract';
import { conversationsApi } from '@contracts/conversations.contract';
import type { KisiGroupLink } from '@contracts/kisi.contract';
import { statusApi, type ServiceStatus } from '@contracts/status.contract';
import type { KisiEvent } from '@contracts/webhook.contract';
import { Providers } from '@/app/providers';
import { routes as appRoutes } from '@/app/router';
import { registerPreloadRoutes } from '@/lib/app-link';
import { resetCache } from '@/lib/reads';
import { resetSessionEnded } from '@/lib/session';
import { notifyChoices } from '@/lib/notify';
import { handle, recordRequests, server } from './test-server';
import { FakeEventSource } from './test-event-source';

export { FakeEventSource };

export const ADMIN_USER = { id: 1, email: 'admin@frontdesk.test', name: 'Administrator', role: 'admin' as const };

export const SERVICE_STATUS = {
  name: 'Frontdesk',
  version: '0.1.0',
  status: 'ok',
  uptimeSeconds: 125,
  startedAt: '2025-01-01T10:00:00.000Z',
  database: { engine: 'sqlite' },
  kisi: { mode: 'emulator' },
  node: 'v20.20.2',
  publicOrigin: null,
} satisfies ServiceStatus;

/**
 * Serves the fake BFF for this test: the given msw handlers first (the first that answers wins),
 * then the service status, an empty chat and the session: `signedIn` controls GET
 * /api/auth/session, and a sign-out clears it. Returns the requests the app makes from now on
 * (`calls`) and the session, for a test to change.
 */
export function fakeBff(handlers: RequestHandler[] = [], options: { signedIn?: boolean } = {}) {
  const session = { signedIn: options.signedIn ?? false };
  server.use(
    ...handlers,
    handle(statusApi.status, () => SERVICE_STATUS),
    handle(authApi.session, () => ({ user: session.signedIn ? ADMIN_USER : null })),
    handle(authApi.logout, () => {
      session.signedIn = false;
    }),
    // Every staff page reads the chat's channels for the unread badge on its Chat tab: none unless a test's chat says.
    handle(chatApi.listChannels, () => ({ channels: [], totalUnread: 0 })),
    // And what waits in guest help, for the count on its tab: nothing unless a test's guest help says.
    handle(conversationsApi.waiting, () => ({ unread: 0 })),
    // The desk's shell asks whether Kisi answers: it does, unless a test's gym says otherwise.
    handle(gymApi.doorSyncStatus, () => ({ kisi: 'reachable' as const, checkedAt: null, waiting: 0, nextTryAt: null })),
    // The staff shell's home counts today's visits: none unless a test's count says.
    handle(gymApi.countVisits, ({ query }) => ({ since: query.since, count: 0 })),
  );
  return { calls: recordRequests(), session };
}

/** GET /api/auth/session names this account instead of ADMIN_USER (a staff member, a runner): put it before the session's own answer. */
export const signedInAs = (user: Partial<SessionUser> & Pick<SessionUser, 'role'>) => handle(authApi.session, () => ({ user: { ...ADMIN_USER, ...user } }));

/**
 * Holds the fake BFF's answers to the requests `matches` picks (by method and path) until
 * `release()`: a request still on its way while the test acts. The holding handler answers
 * nothing itself, so the request goes on to the fake's own handler once released.
 */
export function holdRequests(matches: (method: string, path: string) => boolean) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  server.use(
    http.all('*', async ({ request }) => {
      if (matches(request.method, new URL(request.url).pathname)) await gate;
    }),
  );
  return { release: () => act(async () => open()) };
}

/** Renders the app's real route table (or given routes) in a memory router at `path`. */
export function renderApp(path: string, routes: RouteObject[] = appRoutes) {
  resetCache();
  resetSessionEnded();
  registerPreloadRoutes(routes);
  jest.spyOn(window, 'scrollTo').mockImplementation(() => undefined); // ScrollRestoration; jsdom lacks it
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router };
}

/**
 * jest-fixed-jsdom swaps in Node's FormData, which cannot read a jsdom <form>. Forms (React
 * Router's <Form>, React's own form handling) need `new FormData(form, submitter)`: this subclass
 * reads the form's fields the way a browser does. Call once at the top of a test file that submits.
 */
export function installFormDataShim() {
  const NodeFormData = globalThis.FormData;
  class FormDataFromForm extends NodeFormData {
    constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
      super();
      if (!form) return;
      for (const element of Array.from(form.elements)) {
        const field = element as HTMLInputElement;
        if (!field.name || field.disabled || ['submit', 'button', 'reset', 'file'].includes(field.type)) continue;
        if ((field.type === 'checkbox' || field.type === 'radio') && !field.checked) continue;
        this.append(field.name, field.value);
      }
      const button = submitter as HTMLButtonElement | null | undefined;
      if (button?.name) this.append(button.name, button.value);
    }
  }
  globalThis.FormData = FormDataFromForm as typeof FormData;
}

/** FakeEventSource is the global EventSource in each test of the calling file (a fresh list of instances each time). */
export function fakeEventSourceEachTest() {
  const original = (globalThis as { EventSource?: unknown }).EventSource;
  beforeEach(() => {
    FakeEventSource.instances = [];
    (globalThis as { EventSource?: unknown }).EventSource = FakeEventSource;
  });
  afterEach(() => {
    (globalThis as { EventSource?: unknown }).EventSource = original;
  });
}

/** Resolves after the next animation frame's callbacks have run (what a page does there, a browser does before that frame paints). */
export const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

/**
 * Paint timing as a browser has it on the app's first page: no first contentful paint yet until
 * `paint()` (which also runs the frame and the task `afterPaint` waits for: fake timers needed);
 * `unpaint()` forgets it again; `restore()` puts jsdom's own back.
 */
export function fakePaintTiming() {
  const painted: PerformanceEntry[] = [];
  const observers: PerformanceObserverCallback[] = [];
  class PaintObserver {
    static supportedEntryTypes = ['paint'];
    constructor(callback: PerformanceObserverCallback) {
      observers.push(callback);
    }
    observe() {}
    disconnect() {}
  }
  const realObserver = globalThis.PerformanceObserver;
  globalThis.PerformanceObserver = PaintObserver as unknown as typeof PerformanceObserver;
  const realEntries = Object.getOwnPropertyDescriptor(performance, 'getEntriesByName');
  Object.defineProperty(performance, 'getEntriesByName', { configurable: true, value: (name: string) => (name === 'first-contentful-paint' ? painted : []) });
  return {
    paint: () =>
      act(() => {
        painted.push({ name: 'first-contentful-paint' } as PerformanceEntry);
        for (const observer of observers) observer({ getEntriesByName: () => painted } as unknown as PerformanceObserverEntryList, {} as PerformanceObserver);
        jest.advanceTimersByTime(50);
      }),
    unpaint: () => void (painted.length = 0),
    restore: () => {
      globalThis.PerformanceObserver = realObserver;
      if (realEntries) Object.defineProperty(performance, 'getEntriesByName', realEntries);
      else delete (performance as Partial<Performance>).getEntriesByName;
    },
  };
}

/** A browser notification a page showed (through the faked Notification API), and its click. */
export type ShownNotification = { title: string; body: string | undefined; tag: string | undefined; click: () => void };

/** A notification the faked Notification API was asked to show. */
export interface FakeNotice {
  title: string;
  options: NotificationOptions;
  onclick: (() => void) | null;
  closed: boolean;
}

/**
 * For each test of the calling file: the browser's Notification API, with the permission it holds,
 * what asking for it answers, how often it was asked, and every notification shown.
 */
export function fakeNotificationApiEachTest(initial: NotificationPermission = 'default') {
  const api = { permission: initial, answer: 'granted' as NotificationPermission, asked: 0, shown: [] as FakeNotice[] };
  const scope = window as unknown as { Notification?: unknown };
  class FakeNotification implements FakeNotice {
    static get permission() {
      return api.permission;
    }
    static requestPermission = async () => {
      api.asked += 1;
      api.permission = api.answer;
      return api.answer;
    };
    onclick: (() => void) | null = null;
    closed = false;
    constructor(
      public title: string,
      public options: NotificationOptions = {},
    ) {
      api.shown.push(this);
    }
    close() {
      this.closed = true;
    }
  }
  beforeEach(() => {
    Object.assign(api, { permission: initial, answer: 'granted', asked: 0 });
    api.shown.length = 0;
    scope.Notification = FakeNotification;
  });
  afterEach(() => {
    delete scope.Notification;
  });
  return api;
}

/**
 * For each test of the calling file: the date is midday today, so a message minutes old is "Today"
 * whenever the tests run (just after midnight it was yesterday's). Only `Date` is pinned: timers,
 * microtasks and the network run as they do.
 */
export function middayEachTest() {
  beforeEach(() => {
    const midday = new Date();
    midday.setHours(12, 0, 0, 0);
    jest.useFakeTimers({
      now: midday,
      doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
    });
  });
  afterEach(() => jest.useRealTimers());
}

/** For each test of the calling file: the Web Audio API as the chime uses it, counting the tones it starts (a chime is two). */
export function fakeAudioEachTest() {
  const audio = { tones: 0 };
  const scope = window as unknown as { AudioContext?: unknown };
  class FakeAudio {
    state = 'running';
    currentTime = 0;
    destination = {};
    createGain = () => ({ gain: { setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {} }, connect: (next: unknown) => next });
    createOscillator = () => ({ type: 'sine', frequency: { value: 0 }, connect: (next: unknown) => next, start: () => void (audio.tones += 1), stop: () => {} });
  }
  beforeEach(() => {
    audio.tones = 0;
    scope.AudioContext = FakeAudio;
  });
  afterEach(() => {
    delete scope.AudioContext;
  });
  return audio;
}

/**
 * For each test of the calling file: the browser's Notification API with permission granted, the
 * tab hidden (`tab.hidden` changes it), and this device opted in to notifications, sound off. Every
 * notification shown lands in `shown`.
 */
export function fakeNotificationsEachTest() {
  const api = fakeNotificationApiEachTest('granted');
  const tab = { hidden: true };
  beforeEach(() => {
    tab.hidden = true;
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => tab.hidden });
    notifyChoices.write({ sound: false, alerts: true });
    jest.spyOn(window, 'focus').mockImplementation(() => undefined);
  });
  afterEach(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => false });
    window.localStorage.removeItem('notify.choices');
  });
  return {
    tab,
    /** What was shown so far, in the words a page's test asks about, each click inside React's act. */
    get shown(): ShownNotification[] {
      return api.shown.map((n) => ({ title: n.title, body: n.options.body, tag: n.options.tag, click: () => act(() => n.onclick?.()) }));
    },
  };
}

/** A stored Kisi event as the API returns it (an unlock at the main entrance, one second apart by id). */
export function kisiEvent(id: number, overrides: Partial<KisiEvent> = {}): KisiEvent {
  return {
    id,
    uuid: `uuid-${id}`,
    type: 'lock.unlock',
    actorType: 'User',
    actorId: id,
    actorName: `Person ${id}`,
    actorEmail: `person${id}@mail.example`,
    objectType: 'Lock',
    objectId: 1,
    objectName: 'Main Entrance',
    placeId: 1,
    success: true,
    errorCode: null,
    errorMessage: null,
    createdAt: new Date(Date.UTC(2026, 2, 1, 8, 0, id)).toISOString(),
    receivedAt: new Date(Date.UTC(2026, 2, 1, 8, 0, id)).toISOString(),
    requestedBy: null,
    ...overrides,
  };
}


/** A Kisi access link as the proxy answers it (the /kisi pages and the gym member page read the same endpoint). */
export function kisiLink(id: number, overrides: Partial<KisiGroupLink> = {}): KisiGroupLink {
  return {
    id,
    resource_type: 'GroupLink',
    name: `Link ${id}`,
    email: `guest${id}@mail.example`,
    phone: null,
    link_enabled: true,
    quick_response_code_type: 'online',
    valid_from: null,
    valid_until: null,
    last_used_at: null,
    group_id: 1,
    group: { id: 1, resource_type: 'Group', name: 'Gym Members' },
    created_at: '2025-03-01T09:30:00Z',
    ...overrides,
  };
}
