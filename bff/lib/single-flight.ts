/**
 * Calls for the same key while one is under way share it: N identical requests at once make one
 * upstream call and all get its result (or its error). The next call after it settles starts anew.
 * Not lru-cache's fetchMethod: that shares a call only by keeping its result afterwards, and these
 * results are kept elsewhere (raw upstream bodies of up to 4 MB, mapped in the answer cache; pictures on disk).
 */
export function singleFlight<T>() {
  const running = new Map<string, Promise<T>>();
  return (key: string, work: () => Promise<T>): Promise<T> => {
    let flight = running.get(key);
    if (!flight) {
      flight = work().finally(() => running.delete(key));
      running.set(key, flight);
    }
    return flight;
  };
}
