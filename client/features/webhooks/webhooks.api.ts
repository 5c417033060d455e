import * as v from 'valibot';
import { idText } from '@contracts/common.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { DOOR_OBJECT_TYPE, EVENT_RESULTS, webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { invalidate } from '@/lib/cache';
import { write } from '@/lib/endpoint-write';
import { pageParam, parseSearch, toApiPage } from '@/lib/search-params';
import { paths } from '@/lib/paths';

/** The webhook inbox's data: its search params, the keys and fetchers of its pages, its export link. */
export const PAGE_SIZES = [10, 25, 50, 100] as const;
export const PAGE_SIZE = PAGE_SIZES[0];

// ---- search params (every key falls back; the page says which ones it ignored) -------------------

/** A calendar day as `<input type="date">` writes it, and a real one (no 30 February). */
const DaySchema = v.pipe(
  v.string(),
  v.isoDate(),
  v.check((day) => dayOf(startOf(day)) === day),
);

/** The 1-based page, how many per page, and the filters: `?page&pageSize&person&doorId&result&type&from&to`. */
export const InboxSearchSchema = v.object({
  page: pageParam,
  pageSize: v.fallback(v.pipe(v.string(), v.transform(Number), v.picklist(PAGE_SIZES)), PAGE_SIZE),
  person: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
  doorId: v.fallback(idText(), 0),
  result: v.fallback(v.picklist(['', ...EVENT_RESULTS]), ''),
  type: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(100)), ''),
  /** The first day shown, the venue's local day. */
  from: v.fallback(DaySchema, ''),
  /** The last day shown (inclusive), the venue's local day. */
  to: v.fallback(DaySchema, ''),
});
export type InboxSearch = v.InferOutput<typeof InboxSearchSchema>;
export type InboxFilterName = Exclude<keyof InboxSearch, 'page' | 'pageSize'>;
const FILTER_NAMES = ['person', 'doorId', 'result', 'type', 'from', 'to'] as const satisfies readonly InboxFilterName[];

/** A param of the URL the page could not use, said back to the person (a hand-typed or old link). */
export type IgnoredParam = { name: string; value: string; reason: string };

const REASONS: Record<string, string> = {
  pageSize: `a page size is ${PAGE_SIZES.join(', ')}`,
  person: 'a person search is at most 200 characters',
  doorId: 'a door is given by its lock id, a positive number',
  result: 'a result is granted or denied',
  type: 'an event type is at most 100 characters',
  from: 'a day is written YYYY-MM-DD',
  to: 'a day is written YYYY-MM-DD',
};

/**
 * The inbox's search, and the params it ignored. Bad values fall back as on every list page (never
 * an error screen for a URL), but a filter that silently vanished would show a list the link's
 * sender did not mean: the page names each one. A range whose last day is before its first keeps the first.
 */
export function parseInboxSearch(url: URL | URLSearchParams): InboxSearch & { ignored: IgnoredParam[] } {
  const params = url instanceof URL ? url.searchParams : url;
  const search = parseSearch(InboxSearchSchema, params);
  const ignored: IgnoredParam[] = [];
  for (const name of ['pageSize', ...FILTER_NAMES] as const) {
    const raw = params.get(name)?.trim();
    if (raw && raw !== String(search[name])) ignored.push({ name, value: raw, reason: REASONS[name]! });
  }
  if (search.from && search.to && search.to < search.from) {
    ignored.push({ name: 'to', value: search.to, reason: `the last day is before the first (${search.from})` });
    search.to = '';
  }
  return { ...search, ignored };
}

// ---- days and times -------------------------------------------------------------------------------

/** Local midnight at the start of `day` (YYYY-MM-DD), `plusDays` later; DST-safe (the calendar moves, not 24 h). */
function startOf(day: string, plusDays = 0): Date {
  const [y, m, d] = day.split('-').map(Number);
  const date = new Date(2000, 0, 1);
  date.setFullYear(y!, m! - 1, d! + plusDays);
  date.setHours(0, 0, 0, 0);
  return date;
}
const dayOf = (date: Date) => `${String(date.getFullYear()).padStart(4, '0')}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
const localMidnight = (day: string, plusDays = 0) => startOf(day, plusDays).toISOString();

/**
 * The API's filter for a search: days become UTC instants at the browser's local midnights (the
 * desk's browser is at the venue, so its day is the venue's day); the last day is inclusive, so the
 * range ends before the midnight after it.
 */
export function eventFilterOf(search: InboxSearch) {
  return {
    person: search.person || undefined,
    doorId: search.doorId || undefined,
    result: search.result || undefined,
    type: search.type || undefined,
    since: search.from ? localMidnight(search.from) : undefined,
    before: search.to ? localMidnight(search.to, 1) : undefined,
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

export const FILTER_CHOICES_KEY = keyFor(webhookApi.filterChoices);
export const fetchFilterChoices = fetcherFor(webhookApi.filterChoices);

/** The CSV of exactly the filtered list (every page): a plain link, the session cookie goes with it. */
export const exportHref = (search: InboxSearch) => urlOf(webhookApi.exportEvents, { query: eventFilterOf(search) });

/** The page's URL for a search, defaults left out (`/shell/webhook` is page 1 of everything, 10 a page). */
export function inboxHref(search: InboxSearch): string {
  const params = new URLSearchParams();
  for (const name of FILTER_NAMES) if (search[name]) params.set(name, String(search[name]));
  if (search.pageSize !== PAGE_SIZE) params.set('pageSize', String(search.pageSize));
  if (search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.shellWebhook}?${query}` : paths.shellWebhook;
}

/** Every page of the inbox refetches (or is dropped) after new events arrive; they may bring a new door or type. */
export const refreshInbox = () => Promise.all([invalidate(webhookApi.listEvents), invalidate(webhookApi.filterChoices)]);

/** Unlock lists elsewhere (the member page) read the same events (docs/decisions/0001-one-way-to-write.md). */
export const deleteEvent = write(webhookApi.deleteEvent, { stale: [webhookApi.listEvents, webhookApi.unlocksOf] });
