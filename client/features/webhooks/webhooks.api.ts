import * as v from 'valibot';
import { idText } from '@contracts/common.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { DOOR_OBJECT_TYPE, EVENT_RESULTS, webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { invalidate } from '@/lib/cache';
import { write } from '@/lib/endpoint-write';
import { DAY_REASON, PAGE_SIZE_REASON, dayParam, dayRange, filteredHref, ignoredParams, pageSizeParam, type IgnoredParam } from '@pages/search-params';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';
import { paths } from '@/lib/paths';

/** The webhook inbox's data: its search params, the keys and fetchers of its pages, its export link. */

/** The 1-based page, how many per page, and the filters: `?page&pageSize&person&doorId&result&type&from&to`. */
export const InboxSearchSchema = v.object({
  page: pageParam,
  pageSize: pageSizeParam,
  person: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  doorId: v.fallback(idText(), 0),
  result: v.fallback(v.picklist(['', ...EVENT_RESULTS]), ''),
  type: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  /** The first day shown, the venue's local day. */
  from: dayParam,
  /** The last day shown (inclusive), the venue's local day. */
  to: dayParam,
});
export type InboxSearch = v.InferOutput<typeof InboxSearchSchema>;
export type InboxFilterName = Exclude<keyof InboxSearch, 'page' | 'pageSize'>;
const FILTER_NAMES = ['person', 'doorId', 'result', 'type', 'from', 'to'] as const satisfies readonly InboxFilterName[];

/** The inbox's search, and the params of the link it could not use (the page names them). */
export function parseInboxSearch(url: URL | URLSearchParams): InboxSearch & { ignored: IgnoredParam[] } {
  const params = url instanceof URL ? url.searchParams : url;
  const search = parseSearch(InboxSearchSchema, params);
  const ignored = ignoredParams(params, search, {
    pageSize: PAGE_SIZE_REASON,
    person: 'a person search is at most 200 characters',
    doorId: 'a door is given by its lock id, a positive number',
    result: 'a result is granted or denied',
    type: 'an event type is at most 100 characters',
    from: DAY_REASON,
    to: DAY_REASON,
  });
  return { ...search, ignored };
}

/** The API's filter for a search (days as instants, see `dayRange`). */
export function eventFilterOf(search: InboxSearch) {
  return {
    person: search.person || undefined,
    doorId: search.doorId || undefined,
    result: search.result || undefined,
    type: search.type || undefined,
    ...dayRange(search),
  };
}

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

// ---- keys, fetchers and links ---------------------------------------------------------------------

/** `GET /api/webhook?page=<0-based>&pageSize&…filters` for a 1-based URL page. */
export const eventsKey = (search: InboxSearch) => keyFor(webhookApi.listEvents, { query: { page: toApiPage(search.page), pageSize: search.pageSize, ...eventFilterOf(search) } });
export const fetchEventPage = fetcherFor(webhookApi.listEvents);

/** Kisi's event types a desk meets, in words; any other keeps Kisi's own name. */
const EVENT_TYPE_LABELS: Record<string, string> = { 'lock.unlock': 'Unlock', 'lock.lockdown': 'Lockdown' };
export const eventTypeLabel = (type: string): string => EVENT_TYPE_LABELS[type] ?? type;
/** An event's result in the words of the Result filter. */
export const RESULT_LABELS = { granted: 'Granted', denied: 'Denied' } as const satisfies Record<(typeof EVENT_RESULTS)[number], string>;

export const FILTER_CHOICES_KEY = keyFor(webhookApi.filterChoices);
export const fetchFilterChoices = fetcherFor(webhookApi.filterChoices);

/** The CSV of exactly the filtered list (every page): a plain link, the session cookie goes with it. */
export const exportHref = (search: InboxSearch) => urlOf(webhookApi.exportEvents, { query: eventFilterOf(search) });

/** The page's URL for a search, defaults left out (`/shell/webhook` is page 1 of everything, 10 a page). */
export const inboxHref = (search: InboxSearch): string => filteredHref(paths.shellWebhook, search, FILTER_NAMES);

/** Every page of the inbox refetches (or is dropped) after new events arrive; they may bring a new door or type. */
export const refreshInbox = () => Promise.all([invalidate(webhookApi.listEvents), invalidate(webhookApi.filterChoices)]);

/** Unlock lists elsewhere (the member page) read the same events (docs/decisions/0001-one-way-to-write.md). */
export const deleteEvent = write(webhookApi.deleteEvent, { stale: [webhookApi.listEvents, webhookApi.unlocksOf] });
