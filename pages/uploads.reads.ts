import * as v from 'valibot';
import { read } from '../bff/contracts/endpoint.contract';
import { uploadsApi } from '../bff/contracts/uploads.contract';
import { pages } from './pages';
import type { AreaReads, PageAddress } from './reads';
import { shellLayoutReads } from './shell.reads';
import { pageParam, parseSearch, toApiPage } from './search-params';

/** The upload pages: the stored files' search param and the reads they start with. */

export const STORED_PAGE_SIZE = 10;

const StoredSearchSchema = v.object({ page: pageParam });
export const parseStoredSearch = (search: URLSearchParams) => parseSearch(StoredSearchSchema, search);

/** The limits the server enforces, and this account's quota and use. */
export const limitsRead = read(uploadsApi.limits);

/** `GET /api/uploads?page=<0-based>&pageSize` for a 1-based URL page. */
export const storedRead = (page: number) => read(uploadsApi.list, { query: { page: toApiPage(page), pageSize: STORED_PAGE_SIZE } });

export const uploadOneReads = () => ({ limits: limitsRead });
export const uploadManyReads = ({ search }: PageAddress) => ({ limits: limitsRead, files: storedRead(parseStoredSearch(search).page) });

/** Both pages sit in the staff shell: the shell's reads come first. */
export const uploadsReads = {
  uploadOne: () => ({ ...shellLayoutReads(pages.uploadOne), ...uploadOneReads() }),
  uploadMany: (address) => ({ ...shellLayoutReads(pages.uploadMany), ...uploadManyReads(address) }),
} satisfies AreaReads;
