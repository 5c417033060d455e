import { Router } from 'express';
import { IdParamSchema, PageQuerySchema } from '../../contracts/common.contract';
import { UnlocksQuerySchema } from '../../contracts/webhook.contract';
import { requireRole } from '../../lib/auth.middleware';
import { validate } from '../../lib/validate';
import type { WebhookInboxService } from './webhook-inbox.service';

/**
 * `/api/webhook` (the received Kisi events, delete) and `/api/webhooks/unlocks` (one person's
 * unlocks), for staff. Each route checks the role itself: this router shares `/api/webhooks` with
 * the public signed receiver, so a blanket guard would turn its unknown paths into 401s.
 */
export function webhookInboxRouter(inbox: WebhookInboxService) {
  const router = Router();
  const staff = requireRole('staff');

  router.get('/webhook', staff, validate({ query: PageQuerySchema }, async ({ query }, _req, res) => res.json(await inbox.listEvents(query))));
  router.delete(
    '/webhook/:id',
    staff,
    validate({ params: IdParamSchema }, async ({ params }, _req, res) => {
      await inbox.deleteEvent(params.id);
      res.status(204).end();
    }),
  );
  router.get('/webhooks/unlocks', staff, validate({ query: UnlocksQuerySchema }, async ({ query }, _req, res) => res.json(await inbox.unlocksOf(query))));

  return router;
}
