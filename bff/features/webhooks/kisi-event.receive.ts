import type { KisiEvent } from '../../contracts/webhook.contract';
import type { Db } from '../../db/database';
import type { EventBus, InTransaction } from '../../lib/event-bus';
import { parseKisiEvent } from './kisi-event.parse';
import { KISI_USER_ACTOR, kisiEventsRepository, type KisiEventsRepository } from './kisi-events.repository';

/** Storing a Kisi event: the repository in one transaction, and the live event that announces it. */
export interface KisiEventWrite {
  events: KisiEventsRepository;
  /** Announces a stored event on the live stream once this write commits. */
  announce: (event: KisiEvent) => void;
}

/** Kisi events written through the app's bus: each with its `webhook` live event (the webhook receiver's and the catch-up's). */
export const kisiEventWrites =
  (bus: EventBus<Db>): InTransaction<KisiEventWrite> =>
  (work) =>
    bus.write((trx, announce) => work({ events: kisiEventsRepository(trx), announce: (event) => announce('webhook', event) }));

export interface ReceiveKisiEventDeps {
  events: KisiEventsRepository;
  inTransaction: InTransaction<KisiEventWrite>;
  /** Finds the email of the actor's Kisi user when the event has none. */
  emailOfKisiUser?: (kisiUserId: number) => Promise<string | null>;
  /** Told when that lookup fails (the event is stored without an email). */
  onLookupError?: (err: unknown, uuid: string) => void;
  /** Told when an event of a Kisi user was stored without the email (the lookup could not be made now): it is filled in later. */
  onEmailMissing?: () => void;
}

export type ReceivedKisiEvent = { status: 'stored'; event: KisiEvent } | { status: 'duplicate'; uuid: string };

/**
 * What the webhook receiver does with a verified delivery: read Kisi's body tolerantly, find the
 * actor's email when the body lacks it, and store the event once per uuid with the live event that
 * announces it. Undefined when the body
 * is not an event at all (not a JSON object).
 */
export async function receiveKisiEvent(deps: ReceiveKisiEventDeps, body: unknown, raw: Buffer, receivedAt: string): Promise<ReceivedKisiEvent | undefined> {
  const parsed = parseKisiEvent(body, raw, receivedAt);
  if (!parsed) return undefined;
  if (await deps.events.exists(parsed.uuid)) return { status: 'duplicate', uuid: parsed.uuid };

  const actorId = parsed.actor_id;
  const lacksEmail = () => !parsed.actor_email && typeof actorId === 'number' && (parsed.actor_type ?? KISI_USER_ACTOR) === KISI_USER_ACTOR;
  if (lacksEmail() && deps.emailOfKisiUser) {
    try {
      parsed.actor_email = (await deps.emailOfKisiUser(actorId!))?.toLowerCase() ?? null;
    } catch (err) {
      deps.onLookupError?.(err, parsed.uuid);
    }
  }

  const stored = await deps.inTransaction(async (tx) => {
    const event = await tx.events.insertOnce({ ...parsed, received_at: receivedAt });
    if (event) tx.announce(event);
    return event;
  });
  if (stored && lacksEmail()) deps.onEmailMissing?.();
  return stored ? { status: 'stored', event: stored } : { status: 'duplicate', uuid: parsed.uuid };
}
