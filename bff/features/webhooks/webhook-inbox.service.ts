import type { Page } from '../../contracts/common.contract';
import type { EventFilter, EventFilterChoices, EventListQuery, KisiEvent, UnlocksQuery } from '../../contracts/webhook.contract';
import { inBatches } from '../../lib/csv';
import { notFound } from '../../lib/http-error';
import type { InTransaction } from '../../lib/event-bus';
import type { KisiEventWrite } from './kisi-event.receive';
import type { KisiEventsRepository } from './kisi-events.repository';

/** Rows an export reads per query: few round trips, little memory. */
const EXPORT_BATCH = 500;

/** The staff's view of the Kisi events the webhook stored: the inbox, and one person's unlocks. */
export function webhookInboxService({ events, inTransaction }: { events: KisiEventsRepository; inTransaction: InTransaction<KisiEventWrite> }) {
  return {
    listEvents: (query: EventListQuery): Promise<Page<KisiEvent>> => events.list(query),

    /** Every event the filter matches, in the list's order, a batch at a time (the CSV export). */
    exportEvents: (filter: EventFilter): AsyncIterable<readonly KisiEvent[]> => inBatches((last) => events.matchingAfter(filter, last, EXPORT_BATCH), EXPORT_BATCH),

    filterChoices: (): Promise<EventFilterChoices> => events.filterChoices(),

    /** The event goes with its count in the filter choices, in one transaction. */
    async deleteEvent(id: number): Promise<void> {
      if (!(await inTransaction((tx) => tx.events.remove(id)))) throw notFound(`No Kisi event with id ${id}.`);
    },

    unlocksOf: ({ email, ...page }: UnlocksQuery): Promise<Page<KisiEvent>> => events.unlocksOf(email, page),
  };
}
export type WebhookInboxService = ReturnType<typeof webhookInboxService>;
