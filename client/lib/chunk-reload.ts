/**
 * A lazy chunk that fails to load (a deploy replaced the hashed files, a flaky network) reloads
 * the page once per distinct message per session; a repeat failure reaches the error screen.
 */
const CHUNK_ERROR_PATTERNS = [
  'Failed to fetch dynamically imported module', // Chromium
  'error loading dynamically imported module', // Firefox
  'Importing a module script failed', // Safari
  'Unable to preload CSS', // Vite's CSS preload
];

export function isChunkLoadError(error: unknown): error is Error {
  if (!(error instanceof Error)) return false;
  return CHUNK_ERROR_PATTERNS.some((pattern) => error.message.includes(pattern));
}

export const RELOAD_KEY_PREFIX = 'frontdesk:chunk-reload:';

/** True the first time a key is claimed in this session; false after, or without storage. */
export function claimOnce(key: string): boolean {
  try {
    if (window.sessionStorage.getItem(key) !== null) return false;
    window.sessionStorage.setItem(key, String(Date.now()));
    return window.sessionStorage.getItem(key) !== null;
  } catch {
    return false; // no storage: never reload, so there can be no reload loop
  }
}

/** Indirection so tests can observe reloads (jsdom cannot reload). */
export const pageReloader = { reload: () => window.location.reload() };

/** Whether this error should reload the page now (and records that it did). */
export function shouldReloadFor(error: unknown): boolean {
  return isChunkLoadError(error) && claimOnce(RELOAD_KEY_PREFIX + error.message);
}
