/** An answer as it went out: its JSON bytes and their ETag. */
export interface KeptAnswer {
  body: Buffer;
  etag: string | undefined;
}

export interface AnswerCacheLimits {
  /** Answers kept at most; the oldest goes first. */
  maxEntries: number;
  /** A larger answer is not kept; with `maxEntries` it bounds the memory (500 × 64 KB: at most 32 MB; a page of 100 members is about 30 KB). */
  maxBytes: number;
}

const DEFAULT_LIMITS: AnswerCacheLimits = { maxEntries: 500, maxBytes: 64 * 1024 };

/**
 * Answers of read endpoints, kept while the database is unchanged (`changeMarker`, see
 * `Connection.changeMarker`): any write, by this process or another, forgets them all. A read
 * that is under way while something is written is not kept, as it may hold the data from before.
 */
export function answerCache(changeMarker: () => string, limits: Partial<AnswerCacheLimits> = {}) {
  const { maxEntries, maxBytes } = { ...DEFAULT_LIMITS, ...limits };
  let keptAt: string | undefined;
  const answers = new Map<string, KeptAnswer>();
  return {
    /** The answer kept for `key`, if any, and the marker to hand back to `keep` with a freshly made one. */
    find(key: string): { answer: KeptAnswer | undefined; marker: string } {
      const marker = changeMarker();
      if (marker !== keptAt) {
        answers.clear();
        keptAt = marker;
      }
      return { answer: answers.get(key), marker };
    },
    /** Keeps `answer`, made after `find` gave `marker`, if nothing was written since. */
    keep(key: string, marker: string, answer: KeptAnswer): void {
      if (answer.body.length > maxBytes || changeMarker() !== marker || keptAt !== marker) return;
      if (answers.size >= maxEntries) answers.delete(answers.keys().next().value!);
      answers.set(key, answer);
    },
  };
}
export type AnswerCache = ReturnType<typeof answerCache>;
