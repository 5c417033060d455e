import './uploads.css';
import { useRef } from 'react';
import { useLoaderData, useNavigate, useNavigation } from 'react-router';
import type { StoredUpload } from '@contracts/uploads.contract';
import { limitsRead, parseStoredSearch, storedRead, uploadManyReads } from '@pages/uploads.reads';
import { useConfirmDelete } from '@/components/confirm-delete';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { formatBytes, formatWhen } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { useShellUser } from '@/lib/session';
import { DropZone } from './components/drop-zone';
import { LimitsSummary } from './components/limits-summary';
import { UnfinishedUploads } from './components/unfinished-uploads';
import { StoredFiles } from './components/stored-files';
import { UploadItem } from './components/upload-item';
import type { UploadSnapshot } from './tus-upload';
import { MAX_PARALLEL, batchQueue, singleQueue, useAnnouncements, useLeaveGuard, useQueue, useUnfinishedUploads } from './upload-queues';
import { acceptAttribute } from './upload-rules';
import { deleteUpload, storedHref } from './uploads.api';

/** `/shell/upload/2?page&next|previous`: several files by drag-and-drop, and the stored files (1-based pages, by cursor). */
const reads = routeReads(uploadManyReads);
export const { loader } = reads;
export const handle = { title: 'Upload files', ...reads.handle };

/** "5 files: 2 uploading, 1 waiting, 2 done · 45 MB of 120 MB sent". */
function queueSummary(uploads: readonly UploadSnapshot[]): string {
  const counts = new Map<string, number>();
  for (const u of uploads) counts.set(u.state, (counts.get(u.state) ?? 0) + 1);
  const order = ['uploading', 'waiting', 'paused', 'failed', 'done', 'refused', 'cancelled'];
  const parts = order.filter((state) => counts.get(state)).map((state) => `${counts.get(state)} ${state}`);
  const sending = uploads.filter((u) => u.state !== 'refused' && u.state !== 'cancelled');
  const sent = sending.reduce((sum, u) => sum + u.bytesSent, 0);
  const total = sending.reduce((sum, u) => sum + u.size, 0);
  const files = `${uploads.length} ${uploads.length === 1 ? 'file' : 'files'}: ${parts.join(', ')}`;
  return total > 0 ? `${files} · ${formatBytes(sent)} of ${formatBytes(total)} sent` : files;
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const search = useSearch(parseStoredSearch);
  const me = useShellUser();
  // The hooks themselves rather than `reads.useReads()`: a failed refresh is said on the page, with a retry.
  const limitsQuery = useRead(queryOf(limitsRead), loaded.limits);
  const limits = limitsQuery.data;
  const filesQuery = useRead(queryOf(storedRead(search)), loaded.files);
  const files = filesQuery.data;
  const uploads = useQueue(batchQueue);
  const { unfinished, forget } = useUnfinishedUploads();
  const news = useAnnouncements(batchQueue);
  const navigation = useNavigation();
  const navigate = useNavigate();
  const confirmDelete = useConfirmDelete();
  const queueHeading = useRef<HTMLHeadingElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  useLeaveGuard(uploads.some((u) => u.state === 'uploading' || u.state === 'waiting'));

  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.uploadMany;
  const finished = uploads.some((u) => u.state === 'done' || u.state === 'cancelled' || u.state === 'refused');

  const remove = (id?: string) => {
    batchQueue.clearFinished(id);
    // The row (or rows) went: the focus goes to the list's heading, or to "Choose files" when the list went too.
    requestAnimationFrame(() => (queueHeading.current ?? chooseButton.current)?.focus());
  };

  const openDelete = (file: StoredUpload) =>
    confirmDelete({
      title: 'Delete this file?',
      confirmLabel: 'Delete file',
      body: (
        <p>
          <strong>{file.name}</strong> ({formatBytes(file.size)}, uploaded by {file.uploadedBy.name} on {formatWhen(file.createdAt)}) is deleted for everyone, and its
          download link stops working.
        </p>
      ),
      remove: () => deleteUpload({ params: { id: file.id } }),
      deleted: `${file.name} was deleted.`,
      afterDelete: (close) => {
        close();
        // Its row under "Sending" (here, or on the one-file page) would still offer a download of nothing.
        for (const queue of [batchQueue, singleQueue]) queue.forgetStored(file.id);
        // The last row of a later page: the page before still has rows.
        if (files.items.length === 1 && search.page > 1) void navigate(storedHref(search.page - 1, { previous: files.previous }), { replace: true });
      },
    });

  return (
    <div className="stack-lg uploads">
      <PageHeader
        eyebrow="Uploads"
        title="Upload files"
        actions={
          <AppLink to={paths.uploadOne} className="btn">
            Upload one file
          </AppLink>
        }
      >
        <p>Drop several files at once. Each is checked against the limits before anything is sent, and goes on its own: cancel or retry one without the others.</p>
      </PageHeader>

      {limitsQuery.error ? (
        <LoadError onRetry={() => void limitsQuery.mutate()} retrying={limitsQuery.isValidating}>
          Could not refresh the limits: {errorMessage(limitsQuery.error)}
        </LoadError>
      ) : null}

      <UnfinishedUploads uploads={unfinished} onForget={forget} />

      <div className="upl-layout">
        <DropZone title="Drag files here" buttonLabel="Choose files" buttonRef={chooseButton} multiple accept={acceptAttribute(limits)} onFiles={(chosen) => batchQueue.choose(chosen, limits)}>
          Up to {limits.maxBatchFiles} files and {formatBytes(limits.maxBatchBytes)} at once, {formatBytes(limits.maxFileBytes)} per file.
        </DropZone>
        <LimitsSummary limits={limits} parallel={MAX_PARALLEL} />
      </div>

      {uploads.length > 0 ? (
        <section className="card upl-queue" aria-labelledby="upl-queue-title">
          <div className="card-head">
            <div>
              <h2 id="upl-queue-title" ref={queueHeading} tabIndex={-1} className="card-heading">
                Sending
              </h2>
              <p className="muted small tabular">{queueSummary(uploads)}</p>
            </div>
            {finished ? (
              <button type="button" className="btn btn-small btn-ghost" onClick={() => remove()}>
                Clear finished
              </button>
            ) : null}
          </div>
          <ul className="upl-queue-list" aria-label="Files chosen">
            {uploads.map((upload) => (
              <li key={upload.id}>
                <UploadItem upload={upload} queue={batchQueue} onRemove={remove} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="stack" aria-labelledby="upl-stored-title">
        <h2 id="upl-stored-title" className="section-title">
          Stored files
        </h2>
        {filesQuery.error ? (
          <LoadError onRetry={() => void filesQuery.mutate()} retrying={filesQuery.isValidating}>
            Could not refresh the stored files: {errorMessage(filesQuery.error)}
          </LoadError>
        ) : null}
        <PagedList
          page={search.page}
          pageSize={files.pageSize}
          total={files.total}
          totalIsLowerBound={files.totalIsLowerBound}
          next={files.next}
          previous={files.previous}
          count={files.items.length}
          hrefFor={storedHref}
          label="Stored file pages"
          noun="files"
          empty={
            <EmptyState icon="inbox" title="No files yet">
              Files you and your colleagues upload appear here, newest first, to download or delete.
            </EmptyState>
          }
        >
          <StoredFiles files={files.items} limits={limits} me={me} busy={busy} onDelete={openDelete} />
        </PagedList>
      </section>

      <div className="visually-hidden" role="status" aria-live="polite">
        {news}
      </div>
    </div>
  );
}
