import * as v from 'valibot';
import { read } from '../bff/contracts/endpoint.contract';
import { uploadsApi } from '../bff/contracts/uploads.contract';
import { pages } from './pages';
import type { AreaReads, PageAddress } from './reads';
import { shellLayoutReads } from './shell.reads';
import { cursorParams, pageParam, parseSearch, toApiCursorPage, type CursorSearch } from './search-params';

/** The upload pages: the stored files' search params and the reads they start with. */

export const STORED_PAGE_SIZE = 10;

const StoredSearchSchema = v.object({ page: pageParam, ...cursorParams });
export const parseStoredSearch = (search: URLSearchParams) => parseSearch(StoredSearchSchema, search);

/** The limits the server enforces, and this account's quota and use. */
export const limitsRead = read(uploadsApi.limits);

/** `GET /api/uploads?page=<0-based>&next|previous&pageSize`: the page from the cursor of the link that led here. */
export const storedRead = (search: CursorSearch) => read(uploadsApi.list, { query: { ...toApiCursorPage(search), pageSize: STORED_PAGE_SIZE } });

export const uploadOneReads = () => ({ limits: limitsRead });
export const uploadManyReads = ({ search }: PageAddress) => ({ limits: limitsRead, files: storedRead(parseStoredSearch(search)) });

/** Both pages sit in the staff shell: the shell's reads come first. */
export const uploadsReads = {
  uploadOne: () => ({ ...shellLayoutReads(pages.uploadOne), ...uploadOneReads() }),
  uploadMany: (address) => ({ ...shellLayoutReads(pages.uploadMany), ...uploadManyReads(address) }),
} satisfies AreaReads;
