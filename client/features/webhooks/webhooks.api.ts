import * as v from 'valibot';
import { webhookApi } from '@contracts/webhook.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { invalidate } from '@/lib/cache';
import { write } from '@/lib/endpoint-write';
import { pageParam, parseSearch, toApiPage } from '@/lib/search-params';
import { paths } from '@/lib/paths';

/** The webhook inbox's data: the keys and fetcher of its pages. */
export const PAGE_SIZE = 10;

export const InboxSearchSchema = v.object({ page: pageParam });
export type InboxSearch = v.InferOutput<typeof InboxSearchSchema>;
export const parseInboxSearch = (url: URL | URLSearchParams) => parseSearch(InboxSearchSchema, url);

/** `GET /api/webhook?page=<0-based>` for a 1-based URL page. */
export const eventsKey = (page: number) => keyFor(webhookApi.listEvents, { query: { page: toApiPage(page), pageSize: PAGE_SIZE } });
export const fetchEventPage = fetcherFor(webhookApi.listEvents);

export const inboxHref = (page: number) => (page > 1 ? `${paths.shellWebhook}?page=${page}` : paths.shellWebhook);

/** Every page of the inbox refetches (or is dropped) after new events arrive. */
export const refreshInbox = () => invalidate(webhookApi.listEvents);

/** Unlock lists elsewhere (the member page) read the same events (docs/decisions/0001-one-way-to-write.md). */
export const deleteEvent = write(webhookApi.deleteEvent, { stale: [webhookApi.listEvents, webhookApi.unlocksOf] });
