/** The timer of the real clock, kept before a test can fake it: a wait for a state must go on while the test's clock stands still. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Resolves once `condition()` holds, looking again every 10 ms; fails naming `what` after `withinMs`
 * (generous: on a busy machine it takes longer, and the test still waits for the state, not a time).
 * For a state nothing announces; where an event or a promise says it, wait for that instead.
 */
export async function until(condition: () => boolean, what: string, withinMs = 15_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`Not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => realSetTimeout(resolve, 10));
  }
}

/** {@link until} for a state that takes a request to see: `condition()` is asked again 20 ms after each answer. */
export async function untilAsync(condition: () => Promise<boolean>, what: string, withinMs = 15_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`Not within ${withinMs} ms: ${what}`);
    await new Promise((resolve) => realSetTimeout(resolve, 20));
  }
}
