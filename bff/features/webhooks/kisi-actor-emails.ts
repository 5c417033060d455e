import { LRUCache } from 'lru-cache';
import type { InTransaction } from '../../lib/event-bus';
import type { Logger } from '../../lib/logger';
import type { KisiEventWrite } from './kisi-event.receive';
import type { KisiEventsRepository } from './kisi-events.repository';

/** How long a webhook waits for a free slot of Kisi's 5 requests/s before it stores the event and leaves the email to the resolver. */
export const INLINE_LOOKUP_WAIT_MS = 1_000;
/** A Kisi user's email is taken as still theirs for this long (a rush of one member's unlocks asks Kisi once). */
const KNOWN_EMAIL_MS = 10 * 60_000;
/** A Kisi user Kisi has no email for (gone, or none set) is not asked about again for this long. */
const NO_EMAIL_MS = 60 * 60_000;
/** How often the resolver looks for events left without an email by another instance or an earlier run (it is also woken at each one). */
export const ACTOR_EMAIL_SWEEP_MS = 60_000;
/** Actors read per round of the resolver. */
const ROUND = 50;
/** After a lookup failed (Kisi unreachable, its limit held past the timeout), the next round waits this long. */
const FAILED_ROUND_DELAY_MS = 5_000;

export interface KisiActorEmailsDeps {
  events: KisiEventsRepository;
  /** Asks Kisi for a user's email (through the shared rate limiter); `stop` gives up waiting. Null: no such user, or no email. */
  lookup: (kisiUserId: number, stop?: AbortSignal) => Promise<string | null>;
  /** Writes with the live event that announces each event whose email was filled in. */
  inTransaction: InTransaction<KisiEventWrite>;
  logger: Logger;
}

/**
 * The email of a door event's actor when Kisi's webhook (or its event log) has only the user id.
 *
 * Kisi allows 5 requests/s; door events can come faster (a class letting itself in). A webhook so
 * never waits long on Kisi: it uses the email known from an earlier lookup, or asks Kisi if a slot is
 * free within a second; otherwise it stores the event at once without the email, and the resolver
 * fills that in shortly after: one lookup per Kisi user (not per event), at Kisi's pace, writing the
 * email into every event of that user still without one and announcing each again on the live
 * stream (the inbox and the member's unlocks show it with the email). The resolver reads the events
 * themselves, so it also finishes what another instance, a catch-up or a stop left without an email.
 */
export function kisiActorEmails({ events, lookup, inTransaction, logger }: KisiActorEmailsDeps) {
  const known = new LRUCache<number, string>({ max: 10_000, ttl: KNOWN_EMAIL_MS });
  const noEmail = new LRUCache<number, true>({ max: 10_000, ttl: NO_EMAIL_MS });
  let stopper = new AbortController();
  let running: Promise<void> | undefined;
  let again = false;
  let retry: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;

  const remember = (id: number, email: string | null) => {
    if (email) known.set(id, email.toLowerCase());
    else noEmail.set(id, true);
    return email?.toLowerCase() ?? null;
  };

  /** Fills in what is missing until nothing is (or a lookup fails: then again a little later). */
  async function resolvePending(): Promise<void> {
    for (;;) {
      if (stopper.signal.aborted) return;
      const ids = await events.actorsWithoutEmail(ROUND, [...noEmail.keys()]);
      if (ids.length === 0) return;
      for (const id of ids) {
        if (stopper.signal.aborted) return;
        const email = known.get(id) ?? (noEmail.has(id) ? null : remember(id, await lookup(id, stopper.signal)));
        if (!email) continue;
        await inTransaction(async (tx) => {
          for (const event of await tx.events.fillActorEmail(id, email)) tx.announce(event);
        });
      }
    }
  }

  /** One resolver run at a time in this process; a wake during a run makes it go round once more. */
  function wake(): void {
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          await resolvePending();
        } while (again && !stopper.signal.aborted);
      } catch (err) {
        if (stopper.signal.aborted) return;
        logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'could not resolve the actor emails of Kisi events; trying again shortly');
        clearTimeout(retry);
        retry = setTimeout(wake, FAILED_ROUND_DELAY_MS);
        retry.unref();
      } finally {
        running = undefined;
      }
    })();
  }

  return {
    /**
     * The actor's email for a webhook now: known already, or from Kisi if its limit lets a lookup
     * start within `INLINE_LOOKUP_WAIT_MS`. Null: not now (the event is stored without it, and
     * `wake` has the resolver fill it in).
     */
    async emailNow(kisiUserId: number): Promise<string | null> {
      const cached = known.get(kisiUserId);
      if (cached || noEmail.has(kisiUserId)) return cached ?? null;
      // On the global timer (not AbortSignal.timeout's own), which a test's fake clock moves.
      const waited = new AbortController();
      const timer = setTimeout(() => waited.abort(new Error(`no lookup slot within ${INLINE_LOOKUP_WAIT_MS} ms`)), INLINE_LOOKUP_WAIT_MS);
      try {
        return remember(kisiUserId, await lookup(kisiUserId, AbortSignal.any([waited.signal, stopper.signal])));
      } catch {
        return null;
      } finally {
        clearTimeout(timer);
      }
    },
    wake,
    /** An email Kisi named for a user elsewhere (its event log): used instead of a lookup. */
    learn: (kisiUserId: number, email: string) => void remember(kisiUserId, email),
    /** Resolves what is pending now and then every `intervalMs` (events another instance left), on a timer that keeps no process alive. */
    start(intervalMs: number) {
      if (timer) return;
      stopper = new AbortController();
      wake();
      timer = setInterval(wake, intervalMs);
      timer.unref();
    },
    /** Resolves once the runs under way have ended (tests). */
    async settled(): Promise<void> {
      while (running) await running;
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      clearTimeout(retry);
      timer = undefined;
      stopper.abort();
      await running;
    },
  };
}
export type KisiActorEmails = ReturnType<typeof kisiActorEmails>;
