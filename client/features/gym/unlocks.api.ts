import * as v from 'valibot';
import { UNLOCK_EVENT_TYPE, webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { invalidate, query } from '@/lib/reads';
import { cursorParams, pageParam, parseSearch, toApiCursorPage, type CursorSearch } from '@pages/search-params';
import { PAGE_SIZE } from './gym.api';

/** `?page&next|previous`: the 1-based page and the cursor of the link that led to it. */
const UnlocksSearchSchema = v.object({ page: pageParam, ...cursorParams });
export const parseUnlocksSearch = (search: URLSearchParams) => parseSearch(UnlocksSearchSchema, search);

/** A member's door unlocks: the Kisi events the webhook stored for their email (known once the member is read), a page from its link's cursor. */
export const unlocksOf = (email: string, page: CursorSearch) => query(webhookApi.unlocksOf, { query: { email: email.toLowerCase(), ...toApiCursorPage(page), pageSize: PAGE_SIZE } });

/** Is this live event one of this person's unlocks (emails compare case-insensitively, as in the API)? */
export const isUnlockOf = (event: KisiEvent, email: string) => event.type === UNLOCK_EVENT_TYPE && event.actorEmail?.toLowerCase() === email.toLowerCase();

/** Refetches the shown page of this person's unlocks and drops the others. */
export const refreshUnlocksOf = (email: string) => invalidate(webhookApi.unlocksOf, { query: { email: email.toLowerCase() } });
