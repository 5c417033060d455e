import { uploadsApi } from '@contracts/uploads.contract';
import { urlOf } from '@contracts/endpoint.contract';
import type { PageCursor } from '@/components/pagination';
import { write } from '@/lib/endpoint-write';
import { paths } from '@/lib/paths';
import { invalidate } from '@/lib/reads';
import { setPageParams } from '@pages/search-params';

/** Uploads' data beside the pages' first reads (pages/uploads.reads.ts): links, downloads, refreshes and deletes. */

/** `/shell/upload/2?page=&next|previous=` (1-based, with the cursor of its link; page 1 is the plain path). */
export function storedHref(page: number, cursor?: PageCursor): string {
  const params = new URLSearchParams();
  setPageParams(params, { page, ...cursor });
  return params.size > 0 ? `${paths.uploadMany}?${params}` : paths.uploadMany;
}

/** The file as an attachment. */
export const downloadHref = (id: number) => urlOf(uploadsApi.download, { params: { id } });

/** An upload was cancelled or refused: the space used reads again (the server no longer counts it). */
export const refreshLimits = () => invalidate(uploadsApi.limits);

/** A file was stored or deleted: the lists and the space used read again. */
export const refreshStored = () => Promise.all([invalidate(uploadsApi.list), invalidate(uploadsApi.limits)]).then(() => undefined);

/** The lists and the space used read again (docs/decisions/0001-one-way-to-write.md). */
export const deleteUpload = write(uploadsApi.remove, { stale: [uploadsApi.list, uploadsApi.limits] });
