import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { FakeEventSource } from './test-event-source';
import { server, stopRecording } from './test-server';

// A route's first render compiles its lazy module: on a busy CI machine that alone took over the
// default 1 s of `findBy…`/`waitFor` (an uploads page, tus-js-client and all). Waiting longer costs a
// passing test nothing; only a failing one reports later.
configure({ asyncUtilTimeout: 3000 });

/**
 * jsdom has no View Transitions API, and the app's links ask React Router for a view transition
 * (AppLink), so React Router would warn on every navigation that it is "not running in a DOM
 * environment". A minimal `document.startViewTransition`, as a browser that skips the animation:
 * it runs the update after the current task and settles its promises when the update is done.
 */
type ViewTransitionUpdate = (() => unknown) | { update?: () => unknown } | undefined;
if (typeof document !== 'undefined' && typeof (document as { startViewTransition?: unknown }).startViewTransition !== 'function') {
  Object.defineProperty(document, 'startViewTransition', {
    configurable: true,
    writable: true,
    value: (update: ViewTransitionUpdate) => {
      const callback = typeof update === 'function' ? update : update?.update;
      const updateCallbackDone = Promise.resolve()
        .then(() => callback?.())
        .then(() => undefined);
      return { updateCallbackDone, ready: updateCallbackDone, finished: updateCallbackDone, skipTransition: () => {}, types: new Set<string>() };
    },
  });
}

/**
 * jsdom has no EventSource, and every staff shell page listens for live events (its tabs' counts):
 * a stream that never opens, unless a test drives it (`fakeEventSourceEachTest`).
 */
(globalThis as { EventSource?: unknown }).EventSource ??= FakeEventSource;

/**
 * The fake BFF (client/test-support/test-server.ts): every request a test does not answer is an error, so a
 * page calling an endpoint its test forgot fails loudly instead of waiting on a real network.
 * Handlers a test adds with `server.use` and the requests it saw end with the test.
 */
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  stopRecording();
});
afterAll(() => server.close());
