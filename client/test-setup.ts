import '@testing-library/jest-dom';

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
