import * as v from 'valibot';
import type { Page } from '@contracts/common.contract';
import type { KisiEvent } from '@contracts/webhook.contract';
import { api } from '@/lib/api-client';
import { invalidate, invalidatePrefix, swrCache } from '@/lib/cache';
import { pageParam, parseSearch, toApiPage, withQuery } from '@/lib/search-params';
import { paths } from '@/lib/paths';

/** The webhook inbox's data: SWR keys are the API URLs, so the prefix names every page. */
export const WEBHOOK_URL = '/api/webhook';
/** Unlock lists elsewhere (the member page) read the same events: a delete refreshes them too. */
const UNLOCKS_URL = '/api/webhooks/unlocks';
export const PAGE_SIZE = 10;

export const InboxSearchSchema = v.object({ page: pageParam });
export type InboxSearch = v.InferOutput<typeof InboxSearchSchema>;
export const parseInboxSearch = (url: URL | URLSearchParams) => parseSearch(InboxSearchSchema, url);

/** `GET /api/webhook?page=<0-based>` for a 1-based URL page. */
export const eventsKey = (page: number) => withQuery(WEBHOOK_URL, { page: toApiPage(page), pageSize: PAGE_SIZE });
export const fetchEventPage = (url: string) => api.get<Page<KisiEvent>>(url);

export const inboxHref = (page: number) => (page > 1 ? `${paths.shellWebhook}?page=${page}` : paths.shellWebhook);

/**
 * Every page of the inbox refetches (or is dropped) after new events arrive. The shown page is named
 * too: before its first fetch settles it has no cache entry, only the loader's (now old) preload.
 */
export async function refreshInbox(shownKey?: string): Promise<void> {
  await Promise.all([invalidatePrefix(WEBHOOK_URL), shownKey && !swrCache.has(shownKey) ? invalidate(shownKey) : undefined]);
}

export async function deleteEvent(id: number): Promise<void> {
  await api.delete(`${WEBHOOK_URL}/${id}`);
  await Promise.all([refreshInbox(), invalidatePrefix(UNLOCKS_URL)]);
}
