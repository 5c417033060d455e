import * as v from 'valibot';
import { UNLOCK_EVENT_TYPE, webhookApi, type KisiEvent } from '@contracts/webhook.contract';
import { invalidate, query } from '@/lib/reads';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';
import { PAGE_SIZE } from './gym.api';

const UnlocksSearchSchema = v.object({ page: pageParam });
export const parseUnlocksSearch = (search: URLSearchParams) => parseSearch(UnlocksSearchSchema, search);

/** A member's door unlocks: the Kisi events the webhook stored for their email (known once the member is read). */
export const unlocksOf = (email: string, page: number) => query(webhookApi.unlocksOf, { query: { email: email.toLowerCase(), page: toApiPage(page), pageSize: PAGE_SIZE } });

/** Is this live event one of this person's unlocks (emails compare case-insensitively, as in the API)? */
export const isUnlockOf = (event: KisiEvent, email: string) => event.type === UNLOCK_EVENT_TYPE && event.actorEmail?.toLowerCase() === email.toLowerCase();

/** Refetches the shown page of this person's unlocks and drops the others. */
export const refreshUnlocksOf = (email: string) => invalidate(webhookApi.unlocksOf, { query: { email: email.toLowerCase() } });
