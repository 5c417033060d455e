import { webhookApi } from '../../contracts/webhook.contract';
import { route } from '../../lib/endpoint-router';
import type { WebhookInboxService } from './webhook-inbox.service';

/** `/api/webhook` (the received Kisi events, delete) and `/api/webhooks/unlocks` (one person's unlocks), for staff. */
export const webhookInboxRoutes = (inbox: WebhookInboxService) => [
  route(webhookApi.listEvents, ({ query }) => inbox.listEvents(query)),
  route(webhookApi.deleteEvent, ({ params }) => inbox.deleteEvent(params.id)),
  route(webhookApi.unlocksOf, ({ query }) => inbox.unlocksOf(query)),
];
