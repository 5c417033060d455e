import * as v from 'valibot';
import { uploadsApi } from '@contracts/uploads.contract';
import { urlOf } from '@contracts/endpoint.contract';
import { fetcherFor, keyFor } from '@/lib/api-client';
import { invalidate } from '@/lib/cache';
import { write } from '@/lib/endpoint-write';
import { paths } from '@/lib/paths';
import { pageParam, parseSearch, toApiPage } from '@pages/search-params';

/** Uploads' data: the limits, the stored files' pages (keys name the endpoint and its input), downloads and deletes. */
export const PAGE_SIZE = 10;

export const StoredSearchSchema = v.object({ page: pageParam });
export type StoredSearch = v.InferOutput<typeof StoredSearchSchema>;
export const parseStoredSearch = (url: URL | URLSearchParams) => parseSearch(StoredSearchSchema, url);

/** `/shell/upload/2?page=` (1-based; page 1 is the plain path). */
export const storedHref = (page: number) => (page > 1 ? `${paths.uploadMany}?page=${page}` : paths.uploadMany);

export const limitsKey = keyFor(uploadsApi.limits);
export const fetchLimits = fetcherFor(uploadsApi.limits);

/** `GET /api/uploads?page=<0-based>&pageSize` for a 1-based URL page. */
export const storedKey = (page: number) => keyFor(uploadsApi.list, { query: { page: toApiPage(page), pageSize: PAGE_SIZE } });
export const fetchStoredPage = fetcherFor(uploadsApi.list);

/** The file as an attachment. */
export const downloadHref = (id: number) => urlOf(uploadsApi.download, { params: { id } });

/** An upload was cancelled or refused: the space used reads again (the server no longer counts it). */
export const refreshLimits = () => invalidate(uploadsApi.limits);

/** A file was stored or deleted: the lists and the space used read again. */
export const refreshStored = () => Promise.all([invalidate(uploadsApi.list), invalidate(uploadsApi.limits)]).then(() => undefined);

/** The lists and the space used read again (docs/decisions/0001-one-way-to-write.md). */
export const deleteUpload = write(uploadsApi.remove, { stale: [uploadsApi.list, uploadsApi.limits] });
