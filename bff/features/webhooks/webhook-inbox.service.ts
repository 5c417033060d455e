import type { Page } from '../../contracts/common.contract';
import type { EventListQuery, KisiEvent, UnlocksQuery } from '../../contracts/webhook.contract';
import { notFound } from '../../lib/http-error';
import type { KisiEventsRepository } from './kisi-events.repository';

/** The staff's view of the Kisi events the webhook stored: the inbox, and one person's unlocks. */
export function webhookInboxService({ events }: { events: KisiEventsRepository }) {
  return {
    listEvents: (query: EventListQuery): Promise<Page<KisiEvent>> => events.list(query),

    async deleteEvent(id: number): Promise<void> {
      if (!(await events.remove(id))) throw notFound(`No Kisi event with id ${id}.`);
    },

    unlocksOf: ({ email, ...page }: UnlocksQuery): Promise<Page<KisiEvent>> => events.unlocksOf(email, page),
  };
}
export type WebhookInboxService = ReturnType<typeof webhookInboxService>;
