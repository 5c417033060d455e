import express from 'express';
import { webhookApi } from '../../contracts/webhook.contract';
import { route } from '../../lib/endpoint-router';
import type { InTransaction } from '../../lib/event-bus';
import { HttpError, badRequest } from '../../lib/http-error';
import { jsonDepth, MAX_JSON_DEPTH, TOO_DEEP_DETAIL } from '../../lib/json-depth';
import type { Logger } from '../../lib/logger';
import { verifySignature } from '../../kisi/signature';
import { receiveKisiEvent, type KisiEventWrite } from './kisi-event.receive';
import type { KisiEventsRepository } from './kisi-events.repository';

export const WEBHOOK_BODY_LIMIT = '64kb';

export interface KisiWebhookDeps {
  events: KisiEventsRepository;
  /** KISI_WEBHOOK_SECRET (generated and shared with the emulator in emulator mode); unset → every delivery is refused. */
  secret: string | undefined;
  /** Finds the email of the actor's Kisi user when the event has none. */
  emailOfKisiUser?: (kisiUserId: number) => Promise<string | null>;
  /** An event of a Kisi user was stored without the email: the resolver fills it in (`kisiActorEmails`). */
  onEmailMissing?: () => void;
  /** Stores an event with the live event that announces it. */
  inTransaction: InTransaction<KisiEventWrite>;
  logger: Logger;
  now?: () => string;
}

/**
 * `POST /api/webhooks/kisi` (docs/ARCHITECTURE.md "Kisi"): public, authenticated by `X-Signature` over the raw body;
 * each event stored once by uuid, with its live event. Mount it before the generic JSON parser.
 */
export function kisiWebhookRoute({ events, inTransaction, secret, emailOfKisiUser, onEmailMissing, logger, now = () => new Date().toISOString() }: KisiWebhookDeps) {
  if (!secret) logger.warn('KISI_WEBHOOK_SECRET is not set: Kisi webhooks will be refused');

  const rawBody = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT });
  return route(webhookApi.receive, async (_input, { req }) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!secret || !verifySignature(req.get('X-Signature'), raw, secret)) {
      throw new HttpError(401, req.get('X-Signature') ? 'The webhook signature does not match.' : 'The webhook has no X-Signature header.');
    }
    // The raw body skips express.json's depth check (`refuseDeepJson`): the same limit, once the sender is known to be Kisi.
    if (jsonDepth(raw) > MAX_JSON_DEPTH) throw badRequest(TOO_DEEP_DETAIL);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw badRequest('The webhook body is not valid JSON.');
    }
    const received = await receiveKisiEvent(
      {
        events,
        inTransaction,
        emailOfKisiUser,
        onEmailMissing,
        onLookupError: (err, uuid) =>
          (req.log ?? logger).warn({ err: err instanceof Error ? err.message : String(err), uuid }, 'could not resolve the actor email of a Kisi event'),
      },
      body,
      raw,
      now(),
    );
    if (!received) throw badRequest('The webhook body must be a JSON object.');
    if (received.status === 'duplicate') return { status: 'duplicate' as const, uuid: received.uuid };

    return { status: 'stored' as const, uuid: received.event.uuid, id: received.event.id };
  }, { before: [rawBody] });
}
