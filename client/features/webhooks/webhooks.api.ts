import { urlOf } from '@contracts/endpoint.contract';
import { DOOR_OBJECT_TYPE, EVENT_RESULTS, webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { eventFilterOf, type InboxSearch } from '@pages/webhooks.reads';
import { filteredHref } from '@pages/search-params';
import { write } from '@/lib/endpoint-write';
import { invalidate, query } from '@/lib/reads';
import { paths } from '@/lib/paths';

/** The webhook inbox's data beside its first read (pages/webhooks.reads.ts): its filters' choices, its links, its deletes. */

export type InboxFilterName = Exclude<keyof InboxSearch, 'page' | 'pageSize' | 'next' | 'previous'>;
const FILTER_NAMES = ['person', 'doorId', 'result', 'type', 'from', 'to'] as const satisfies readonly InboxFilterName[];

export const isFiltered = (search: InboxSearch) => FILTER_NAMES.some((name) => Boolean(search[name]));

/** Would this event be on the filtered list? (Live events that would not are not announced.) */
export function matchesSearch(event: KisiEvent, search: InboxSearch): boolean {
  const filter = eventFilterOf(search);
  const person = filter.person?.toLowerCase();
  const at = new Date(event.createdAt).getTime();
  return (
    (!person || [event.actorName, event.actorEmail].some((text) => text?.toLowerCase().includes(person))) &&
    (!filter.doorId || (event.objectType === DOOR_OBJECT_TYPE && event.objectId === filter.doorId)) &&
    (!filter.result || event.success === (filter.result === 'granted')) &&
    (!filter.type || event.type === filter.type) &&
    (!filter.since || at >= new Date(filter.since).getTime()) &&
    (!filter.before || at < new Date(filter.before).getTime())
  );
}

// ---- reads and links ------------------------------------------------------------------------------

/** Kisi's event types a desk meets, in words; any other keeps Kisi's own name. */
const EVENT_TYPE_LABELS: Record<string, string> = { 'lock.unlock': 'Unlock', 'lock.lockdown': 'Lockdown' };
export const eventTypeLabel = (type: string): string => EVENT_TYPE_LABELS[type] ?? type;
/** An event's result in the words of the Result filter. */
export const RESULT_LABELS = { granted: 'Granted', denied: 'Denied' } as const satisfies Record<(typeof EVENT_RESULTS)[number], string>;

/** The doors and event types seen in events, for the filters: read beside the list, never in its way. */
export const filterChoices = query(webhookApi.filterChoices);

/** The CSV of exactly the filtered list (every page): a plain link, the session cookie goes with it. */
export const exportHref = (search: InboxSearch) => urlOf(webhookApi.exportEvents, { query: eventFilterOf(search) });

/** The page's URL for a search, defaults left out (`/shell/webhook` is page 1 of everything, 10 a page); a later page keeps its link's cursor. */
export const inboxHref = (search: InboxSearch): string => filteredHref(paths.shellWebhook, search, FILTER_NAMES);

/** Every page of the inbox refetches (or is dropped) after new events arrive; they may bring a new door or type. */
export const refreshInbox = () => Promise.all([invalidate(webhookApi.listEvents), invalidate(webhookApi.filterChoices)]);

/** Unlock lists elsewhere (the member page) read the same events (docs/decisions/0001-one-way-to-write.md). */
export const deleteEvent = write(webhookApi.deleteEvent, { stale: [webhookApi.listEvents, webhookApi.unlocksOf] });
