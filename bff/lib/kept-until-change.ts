/**
 * Reads kept until the data they come from changes. The first read of a key runs `work`; the reads
 * of that key after it, and those while it runs, share its answer until `changed()`. A read begun
 * before a change is never kept past it, so no answer older than the last `changed()` is served
 * (a failed read is not kept at all). At most `maxKeys` answers are kept between two changes: a
 * caller asking for ever new keys gets fresh reads, not a growing map.
 */
export function keptUntilChange<T>(maxKeys = 16) {
  let kept = new Map<string, Promise<T>>();
  return {
    read(key: string, work: () => Promise<T>): Promise<T> {
      const hit = kept.get(key);
      if (hit) return hit;
      const reading = work();
      if (kept.size < maxKeys) {
        const into = kept;
        into.set(key, reading);
        reading.catch(() => {
          if (into.get(key) === reading) into.delete(key);
        });
      }
      return reading;
    },
    changed() {
      kept = new Map();
    },
  };
}
export type KeptUntilChange<T> = ReturnType<typeof keptUntilChange<T>>;
