import { use } from 'react';
import type { ComponentType } from 'react';

/**
 * A component whose code is its own chunk. `start()` begins loading it (the router does, beside the
 * first page's code). Unlike `React.lazy`, it renders at once when the code has arrived by its first
 * render (the usual case) and suspends only when it has not: `lazy` suspends on every first render,
 * and React 19 then holds the revealed content until 300 ms after the fallback appeared, so every
 * first load paid those 300 ms before the layout even asked who is signed in.
 */
export function preloadedComponent<P extends object>(load: () => Promise<ComponentType<P>>) {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () => {
    if (!loading) {
      loading = load().then((component) => (Loaded = component));
      // A failed chunk shows when the component renders (its error boundary reloads the page once).
      loading.catch(() => {});
    }
    return loading;
  };
  function Component(props: P) {
    const Ready = Loaded ?? use(start());
    return <Ready {...props} />;
  }
  /** Whether the code has arrived: rendering now would not suspend. */
  const ready = () => Loaded !== undefined;
  return { Component, start, ready };
}
