import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { UploadQueue, findUnfinishedUploads, forgetUnfinishedUpload, type QueueEvent, type UnfinishedUpload, type UploadSnapshot } from './tus-upload';
import { refreshLimits, refreshStored } from './uploads.api';

/**
 * The two pages' queues. They live beside the pages, not in them: an upload goes on while its
 * page is left for another, and the page shows it again on return.
 */
export const MAX_PARALLEL = 3;
export const singleQueue = new UploadQueue(1);
export const batchQueue = new UploadQueue(MAX_PARALLEL);

/**
 * What the queues' news makes stale: a stored file shows in the lists and counts against the space;
 * a cancelled or refused one no longer counts. News of one moment (a choice's refusals) reads once.
 */
let stale: { list: boolean } | null = null;
function readAgain(list: boolean) {
  if (stale) {
    stale.list ||= list;
    return;
  }
  stale = { list };
  queueMicrotask(() => {
    const withList = stale?.list ?? false;
    stale = null;
    void (withList ? refreshStored() : refreshLimits());
  });
}

for (const queue of [singleQueue, batchQueue]) {
  queue.watch(({ kind }) => {
    if (kind === 'done') readAgain(true);
    else if (kind === 'cancelled' || kind === 'refused') readAgain(false);
  });
}

/** The queue's rows, kept current. */
export function useQueue(queue: UploadQueue): readonly UploadSnapshot[] {
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
}

/** What a screen reader hears when a file is done, fails, is refused or is cancelled. */
export function announcement({ kind, upload }: QueueEvent): string {
  switch (kind) {
    case 'done':
      return `${upload.name} is uploaded.`;
    case 'failed':
      return `${upload.name} failed: ${upload.reason ?? ''}`.trim();
    case 'cancelled':
      return `${upload.name} was cancelled.`;
    case 'refused':
      return `${upload.name} was refused: ${upload.reason ?? ''}`.trim();
  }
}

/**
 * The latest news of the queue for a live region. Refusals of one choice come together and are
 * said together.
 */
export function useAnnouncements(queue: UploadQueue): string {
  const [text, setText] = useState('');
  useEffect(() => {
    let pending: string[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = queue.watch((event) => {
      pending.push(announcement(event));
      clearTimeout(timer);
      timer = setTimeout(() => {
        setText(pending.join(' '));
        pending = [];
      }, 50);
    });
    return () => {
      stop();
      clearTimeout(timer);
    };
  }, [queue]);
  return text;
}

/** While files are sending, closing or reloading the tab asks first (an upload continues after a reload once the file is chosen again). */
export function useLeaveGuard(busy: boolean) {
  useEffect(() => {
    if (!busy) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [busy]);
}

/**
 * Uploads this browser began and did not finish, minus those either page is sending now; read
 * again whenever a file changes state or gets its address on the server.
 */
export function useUnfinishedUploads(): { unfinished: readonly UnfinishedUpload[]; forget: (upload: UnfinishedUpload) => Promise<void> } {
  const [unfinished, setUnfinished] = useState<readonly UnfinishedUpload[]>([]);
  const shown = useRef('');
  const [version, setVersion] = useState(0);
  const single = useQueue(singleQueue);
  const batch = useQueue(batchQueue);
  const changes = [...single, ...batch].map((u) => `${u.id}:${u.state}:${u.uploadUrl ?? ''}`).join(' ');
  useEffect(() => {
    let live = true;
    const sending = new Set([...singleQueue.uploadUrls, ...batchQueue.uploadUrls]);
    findUnfinishedUploads().then(
      (found) => {
        const next = found.filter((u) => !sending.has(u.url));
        const keys = next.map((u) => u.key).join(' ');
        // The same list again renders nothing.
        if (!live || keys === shown.current) return;
        shown.current = keys;
        setUnfinished(next);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [changes, version]);
  const forget = async (upload: UnfinishedUpload) => {
    await forgetUnfinishedUpload(upload);
    setVersion((n) => n + 1);
    await refreshStored();
  };
  return { unfinished, forget };
}
