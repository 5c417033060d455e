/**
 * A value made the first time it is asked for. For `Intl` formatters: the first one a page makes
 * loads the browser's locale data, about 30 ms of a phone's CPU, so a module that makes them as it
 * loads charges every page that imports it, even one that formats nothing on its first screen.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
