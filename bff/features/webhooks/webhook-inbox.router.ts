import { webhookApi } from '../../contracts/webhook.contract';
import { sendCsv } from '../../lib/csv';
import { route } from '../../lib/endpoint-router';
import { EVENT_CSV_COLUMNS, eventExportFilename } from './event-export.csv';
import type { WebhookInboxService } from './webhook-inbox.service';

/** `/api/webhook` (the received Kisi events: filter, export, delete) and `/api/webhooks/unlocks` (one person's unlocks), for staff. */
export const webhookInboxRoutes = (inbox: WebhookInboxService) => [
  route(webhookApi.listEvents, ({ query }) => inbox.listEvents(query)),
  route(webhookApi.exportEvents, ({ query }, { res }) => sendCsv(res, eventExportFilename(new Date()), EVENT_CSV_COLUMNS, inbox.exportEvents(query))),
  route(webhookApi.filterChoices, () => inbox.filterChoices()),
  route(webhookApi.deleteEvent, ({ params }) => inbox.deleteEvent(params.id)),
  route(webhookApi.unlocksOf, ({ query }) => inbox.unlocksOf(query)),
];
