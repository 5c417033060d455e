import * as v from 'valibot';
import { idText } from '../bff/contracts/common.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { EVENT_RESULTS, webhookApi } from '../bff/contracts/webhook.contract';
import { pages } from './pages';
import type { AreaReads, PageAddress } from './reads';
import { shellLayoutReads } from './shell.reads';
import { DAY_REASON, PAGE_SIZE_REASON, cursorParams, dayParam, dayRange, ignoredParams, pageParam, pageSizeParam, parseSearch, toApiCursorPage, type IgnoredParam } from './search-params';

/** The webhook inbox (door events): its search params (every key falls back; the page names what it ignored) and the read it starts with. */

/** The 1-based page and the cursor of the link that led to it, how many per page, and the filters: `?page&next|previous&pageSize&person&doorId&result&type&from&to`. */
const InboxSearchSchema = v.object({
  page: pageParam,
  ...cursorParams,
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

/** The inbox's search, and the params of the link it could not use (the page names them). */
export function parseInboxSearch(params: URLSearchParams): InboxSearch & { ignored: IgnoredParam[] } {
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

/** `GET /api/webhook?page=<0-based>&next|previous&pageSize&…filters`: the page from the cursor of the link that led here. */
export const eventsRead = (search: InboxSearch) => read(webhookApi.listEvents, { query: { ...toApiCursorPage(search), pageSize: search.pageSize, ...eventFilterOf(search) } });

export const webhookInboxReads = ({ search }: PageAddress) => ({ events: eventsRead(parseInboxSearch(search)) });

/** The page sits in the staff shell: the shell's reads come first. */
export const webhooksReads = { shellWebhook: (address) => ({ ...shellLayoutReads(pages.shellWebhook), ...webhookInboxReads(address) }) } satisfies AreaReads;
