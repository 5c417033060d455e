import * as v from 'valibot';
import type { Page } from '@contracts/common.contract';
import { UNLOCK_EVENT_TYPE } from '@contracts/webhook.contract';
import type { KisiEvent } from '@contracts/webhook.contract';
import { api } from '@/lib/api-client';
import { invalidate, swrCache } from '@/lib/cache';
import { pageParam, parseSearch, toApiPage, withQuery } from '@/lib/search-params';
import { PAGE_SIZE } from './gym.api';

/** A member's door unlocks: the Kisi events the webhook stored for their email. */
export const UNLOCKS_URL = '/api/webhooks/unlocks';

export const UnlocksSearchSchema = v.object({ page: pageParam });
export const parseUnlocksSearch = (url: URL | URLSearchParams) => parseSearch(UnlocksSearchSchema, url);

export const unlocksKey = (email: string, page: number) => withQuery(UNLOCKS_URL, { email: email.toLowerCase(), page: toApiPage(page), pageSize: PAGE_SIZE });
export const fetchUnlockPage = (url: string) => api.get<Page<KisiEvent>>(url);

/** Is this live event one of this person's unlocks (emails compare case-insensitively, as in the API)? */
export const isUnlockOf = (event: KisiEvent, email: string) => event.type === UNLOCK_EVENT_TYPE && event.actorEmail?.toLowerCase() === email.toLowerCase();

/** Refetches the shown page of this person's unlocks and drops the others (and any preloaded answer). */
export async function refreshUnlocksOf(email: string, shownKey: string): Promise<void> {
  const mine = (k: string) => k.startsWith(`${UNLOCKS_URL}?`) && new URLSearchParams(k.slice(UNLOCKS_URL.length + 1)).get('email') === email.toLowerCase();
  // The shown key may have no cache entry yet (only the loader's preload): name it anyway.
  const keys = new Set([shownKey, ...[...swrCache.keys()].filter(mine)]);
  await Promise.all([...keys].map((k) => invalidate(k)));
}
