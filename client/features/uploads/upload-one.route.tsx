import './uploads.css';
import { useEffect, useRef, useState } from 'react';
import { useLoaderData } from 'react-router';
import { limitsRead, uploadOneReads } from '@pages/uploads.reads';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { formatBytes } from '@/lib/format';
import { DropZone } from './components/drop-zone';
import { LimitsSummary } from './components/limits-summary';
import { UnfinishedUploads } from './components/unfinished-uploads';
import { UploadItem } from './components/upload-item';
import { singleQueue, useAnnouncements, useLeaveGuard, useQueue, useUnfinishedUploads } from './upload-queues';
import { acceptAttribute } from './upload-rules';

/** `/shell/upload/1`: one file, with a progress bar. */
const reads = routeReads(uploadOneReads);
export const { loader } = reads;
export const handle = { title: 'Upload a file', ...reads.handle };

const UNDER_WAY = new Set(['waiting', 'uploading', 'paused', 'failed']);

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  // The hook itself rather than `reads.useReads()`: a failed refresh of the limits is said on the page.
  const limitsQuery = useRead(queryOf(limitsRead), loaded.limits);
  const limits = limitsQuery.data;
  const uploads = useQueue(singleQueue);
  const { unfinished, forget } = useUnfinishedUploads();
  const news = useAnnouncements(singleQueue);
  const current = uploads.at(-1);
  const underWay = current ? UNDER_WAY.has(current.state) : false;
  const [note, setNote] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const chooseButton = useRef<HTMLButtonElement>(null);
  const focusUpload = useRef(false);
  // The chooser gives way to the chosen file: the focus follows it.
  useEffect(() => {
    if (!focusUpload.current) return;
    focusUpload.current = false;
    heading.current?.focus();
  }, [current?.id]);
  useLeaveGuard(current?.state === 'uploading' || current?.state === 'waiting');

  const choose = (files: File[]) => {
    if (underWay) return;
    singleQueue.clearFinished();
    setNote(files.length > 1 ? `One file at a time here: ${files[0]!.name} was taken, the other ${files.length - 1} left out.` : '');
    focusUpload.current = true;
    singleQueue.choose(files.slice(0, 1), limits, { batch: false });
  };

  const remove = (id: string) => {
    singleQueue.clearFinished(id);
    requestAnimationFrame(() => chooseButton.current?.focus());
  };

  return (
    <div className="stack-lg uploads">
      <PageHeader
        eyebrow="Uploads"
        title="Upload a file"
        actions={
          <AppLink to={paths.uploadMany} className="btn">
            Upload several files
          </AppLink>
        }
      >
        <p>Send one file to the front desk’s shared files, with its progress as it goes. Downloads are always saved, never opened in the browser.</p>
      </PageHeader>

      {limitsQuery.error ? (
        <LoadError onRetry={() => void limitsQuery.mutate()} retrying={limitsQuery.isValidating}>
          Could not refresh the limits: {errorMessage(limitsQuery.error)}
        </LoadError>
      ) : null}

      <UnfinishedUploads uploads={unfinished} onForget={forget} />

      <div className="upl-layout">
        <div className="stack-lg">
          {underWay ? null : (
            <DropZone title="Drag a file here" buttonLabel="Choose a file" buttonRef={chooseButton} multiple={false} accept={acceptAttribute(limits)} onFiles={choose}>
              One file, up to {formatBytes(limits.maxFileBytes)}.
            </DropZone>
          )}
          {note ? <p className="banner banner-info">{note}</p> : null}
          {current ? (
            <section className="card upl-current" aria-labelledby="upl-current-title">
              <h2 id="upl-current-title" ref={heading} tabIndex={-1} className="card-heading">
                {current.state === 'done' ? 'Uploaded' : 'Your upload'}
              </h2>
              <UploadItem upload={current} queue={singleQueue} onRemove={remove} large />
              {current.state === 'done' ? (
                <p className="small">
                  <AppLink to={paths.uploadMany}>See every stored file</AppLink>
                </p>
              ) : null}
            </section>
          ) : null}
        </div>
        <LimitsSummary limits={limits} />
      </div>

      <div className="visually-hidden" role="status" aria-live="polite">
        {news}
      </div>
    </div>
  );
}
