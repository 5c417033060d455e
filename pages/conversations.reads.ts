import * as v from 'valibot';
import { CONVERSATION_ASSIGNEE_FILTERS, CONVERSATION_STATUSES, conversationsApi } from '../bff/contracts/conversations.contract';
import { read } from '../bff/contracts/endpoint.contract';
import { pages } from './pages';
import { idParam, type AreaReads, type PageAddress } from './reads';
import { cursorParams, pageParam, parseSearch, toApiCursorPage } from './search-params';
import { shellLayoutReads } from './shell.reads';

/** Guest conversations: the front desk's list and threads, and the guest's help page; their search params (every key falls back silently) and first reads. */

export const CONVERSATIONS_PAGE_SIZE = 20;

export const STATUS_FILTERS = [...CONVERSATION_STATUSES, 'all'] as const;
export type StatusFilter = (typeof STATUS_FILTERS)[number];
export type AssigneeFilter = (typeof CONVERSATION_ASSIGNEE_FILTERS)[number];

const ConversationsSearchSchema = v.object({
  page: pageParam,
  ...cursorParams,
  status: v.fallback(v.picklist(STATUS_FILTERS), 'open'),
  assignee: v.fallback(v.picklist(CONVERSATION_ASSIGNEE_FILTERS), 'anyone'),
  query: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(200)), ''),
});
export type ConversationsSearch = v.InferOutput<typeof ConversationsSearchSchema>;
export const DEFAULT_CONVERSATIONS_SEARCH: ConversationsSearch = v.getFallbacks(ConversationsSearchSchema);
export const parseConversationsSearch = (search: URLSearchParams) => parseSearch(ConversationsSearchSchema, search);

/** `?table=` of the help page (the diner pages and the table's QR code write it): a whole number, or none. */
const HelpSearchSchema = v.object({ table: v.fallback(v.pipe(v.string(), v.regex(/^[1-9]\d{0,5}$/), v.toNumber()), 0) });
export const parseHelpSearch = (search: URLSearchParams) => parseSearch(HelpSearchSchema, search);

/** `GET /api/conversations?status&assignee&query&page=<0-based>&next|previous&pageSize`: the page from the cursor of the link that led here. */
export const conversationsRead = (search: ConversationsSearch) =>
  read(conversationsApi.list, { query: { status: search.status, assignee: search.assignee, query: search.query, ...toApiCursorPage(search), pageSize: CONVERSATIONS_PAGE_SIZE } });

/** One conversation with its thread (the front desk's, or the guest's own). */
export const conversationRead = (id: number) => read(conversationsApi.get, { params: { id } });

// ---- each route's reads, and each page's (a thread opens beside the list, both inside the shell) ----

export const conversationsListReads = ({ search }: PageAddress) => ({ conversations: conversationsRead(parseConversationsSearch(search)) });

export const conversationThreadReads = (address: PageAddress) => ({ conversation: conversationRead(idParam(address, 'conversationId', 'conversation')) });

export const conversationsReads = {
  conversations: (address) => ({ ...shellLayoutReads(pages.conversations), ...conversationsListReads(address) }),
  conversation: (address) => ({ ...shellLayoutReads(pages.conversation), ...conversationsListReads(address), ...conversationThreadReads(address) }),
} satisfies AreaReads;
