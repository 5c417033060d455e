import * as tus from 'tus-js-client';
import * as v from 'valibot';
import { StoredUploadSchema, TUS_PATH, UPLOAD_METADATA_KEYS, UPLOAD_STORED_HEADER, type StoredUpload, type UploadLimits } from '@contracts/uploads.contract';
import { checkBatch } from './upload-rules';

/**
 * One file's upload over tus 1.0 (tus-js-client) as a small state machine, and a queue running a
 * few of them at once. Only the upload pages import this module, so tus-js-client stays out of the
 * first screen's JavaScript.
 *
 *   waiting ─start→ uploading ─→ done
 *      │              │  ├─pause→ paused ─resume→ waiting
 *      │              │  └─error→ failed ─retry→ waiting   (retry continues from the server's offset)
 *      └──────────────┴─cancel→ cancelled                    (the server forgets the upload)
 *   refused: the browser's own checks, or the server, said no; nothing more is sent.
 */

export type UploadState = 'waiting' | 'uploading' | 'paused' | 'done' | 'failed' | 'cancelled' | 'refused';

export type UploadSnapshot = {
  /** This page's own id of the row. */
  readonly id: string;
  readonly name: string;
  readonly size: number;
  readonly state: UploadState;
  readonly bytesSent: number;
  /** Bytes per second over the last few seconds (null until there is enough to tell). */
  readonly speed: number | null;
  readonly secondsLeft: number | null;
  /** Why it was refused or failed, in words. */
  readonly reason: string | null;
  /** Where an upload found from an earlier visit continued (bytes the server already had). */
  readonly resumedFrom: number | null;
  /** The stored file, once done (from the last answer's `Upload-Stored`). */
  readonly stored: StoredUpload | null;
  /** The upload's address on the server, once it has one (it counts against the quota from then on). */
  readonly uploadUrl: string | null;
};

/** The tus-js-client calls this uses; tests put a fake of the package in its place. */
type TusUpload = InstanceType<typeof tus.Upload>;
type TusResponse = { getStatus(): number; getHeader(name: string): string | undefined; getBody(): string };
type TusRequest = { getMethod(): string };

export type UploadBatch = { id: string; files: number; bytes: number };

/** What a tus error says: the problem's `detail` when the server answered one; whether trying again may help. */
export function describeTusError(error: unknown): { reason: string; retryable: boolean } {
  const response = (error as { originalResponse?: TusResponse | null } | null)?.originalResponse ?? null;
  if (!response) return { reason: 'Could not reach the server. Retry continues where it stopped.', retryable: true };
  const status = response.getStatus();
  let detail = '';
  try {
    const body = JSON.parse(response.getBody()) as { detail?: unknown; title?: unknown };
    detail = typeof body.detail === 'string' ? body.detail : typeof body.title === 'string' ? body.title : '';
  } catch {
    detail = '';
  }
  // A 413 without a problem document is not the app's (it words its own): a proxy in front of it refused a chunk.
  if (status === 413 && !detail) return { reason: 'A server in front of the app refused part of this file as too large (413). Tell your administrator: its limit must let one upload chunk through.', retryable: false };
  if (status === 401) return { reason: 'Your session has ended. Sign in again (in another tab), then retry.', retryable: true };
  // A limit, a type, or someone else's upload: sending it again changes nothing.
  if ([400, 403, 413, 415].includes(status)) return { reason: detail || `The server refused this file (${status}).`, retryable: false };
  return { reason: detail ? `${detail}` : `The server answered ${status}. Retry continues where it stopped.`, retryable: true };
}

/**
 * Whether tus-js-client tries a failed request again by itself (after its retryDelays): as it does by
 * default (no answer, a 5xx, 409, 423, while the browser is online), and after a 408 too: the server
 * stopped waiting for a chunk whose link stalled, and the upload goes on from what it has stored.
 */
export function retriesByItself(error: unknown): boolean {
  const status = (error as { originalResponse?: TusResponse | null } | null)?.originalResponse?.getStatus() ?? 0;
  const online = typeof navigator === 'undefined' || navigator.onLine !== false;
  return online && (status < 400 || status >= 500 || [408, 409, 423].includes(status));
}

/** The stored file of an `Upload-Stored` header (JSON, URI-encoded), if the header holds one. */
export function storedFromHeader(value: string | undefined): StoredUpload | null {
  if (!value) return null;
  try {
    const parsed = v.safeParse(StoredUploadSchema, JSON.parse(decodeURIComponent(value)));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** How far back the speed looks. */
const SPEED_WINDOW_MS = 5000;
/** Less than this much time says nothing about the speed yet. */
const SPEED_MIN_MS = 500;

/** A random batch id the server accepts (`[A-Za-z0-9_-]`), also where `crypto.randomUUID` is missing (plain http). */
export function newBatchId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

let nextId = 1;

/** Where tus uploads are created, absolute: tus-js-client resolves the server's (relative) Location against it. */
export const tusEndpoint = () => new URL(TUS_PATH, window.location.href).href;

/** An upload this browser began on this server and did not finish (tus keeps them in localStorage to continue them). */
/** `startedAt`: ISO, or '' when unknown. */
export type UnfinishedUpload = { key: string; url: string; name: string; size: number | null; startedAt: string };

export async function findUnfinishedUploads(): Promise<UnfinishedUpload[]> {
  if (!tus.canStoreURLs) return [];
  const endpoint = `${tusEndpoint()}/`;
  const stored = await tus.defaultOptions.urlStorage.findAllUploads();
  return stored
    .filter((u) => u.uploadUrl?.startsWith(endpoint))
    .map((u) => ({ key: u.urlStorageKey, url: u.uploadUrl!, name: u.metadata[UPLOAD_METADATA_KEYS.name] ?? 'A file', size: u.size, startedAt: isoOf(u.creationTime) }));
}

/** tus writes `Date#toString()`; '' when it cannot be read. */
const isoOf = (text: string) => {
  const at = new Date(text);
  return Number.isNaN(at.getTime()) ? '' : at.toISOString();
};

async function forgetStoredUpload(url: string): Promise<void> {
  const storage = tus.defaultOptions.urlStorage;
  const stored = await storage.findAllUploads();
  await Promise.all(stored.filter((u) => u.uploadUrl === url).map((u) => storage.removeUpload(u.urlStorageKey)));
}

/**
 * An upload refused for good is given up on the server as well as in this browser. The app forgets an
 * upload it refused itself, but a refusal from in front of it (a proxy's 413 on a chunk) never reached
 * it, and the upload would hold its place in the quota until it expires a day later.
 */
async function releaseUpload(url: string): Promise<void> {
  await forgetStoredUpload(url);
  await tus.Upload.terminate(url, { retryDelays: [0, 1000] }).catch(() => undefined);
}

/** Gives an unfinished upload up: the server forgets it (and its bytes stop counting), and so does this browser. */
export async function forgetUnfinishedUpload(upload: UnfinishedUpload): Promise<void> {
  // Already gone on the server (expired, refused, another account's): forgotten all the same.
  await tus.Upload.terminate(upload.url, { retryDelays: [0, 1000] }).catch(() => undefined);
  await tus.defaultOptions.urlStorage.removeUpload(upload.key);
}

/** One file's upload. `onChange` gets every new snapshot. */
export class FileUpload {
  private snap: UploadSnapshot;
  private upload: TusUpload | null = null;
  /** An earlier upload of this file (this browser remembers it) has been looked for. */
  private prepared = false;
  private samples: { at: number; bytes: number }[] = [];
  private listener: (snapshot: UploadSnapshot) => void = () => undefined;
  /** Settles once the server has forgotten this upload after a refusal for good (at once when it had none). */
  released: Promise<void> = Promise.resolve();
  /** Bumped whenever a run stops: a start still looking for an earlier upload then stops there. */
  private run = 0;

  constructor(
    readonly file: File,
    private readonly options: { type: string; chunkBytes: number; batch?: UploadBatch },
    refusal?: string,
  ) {
    this.snap = {
      id: `upload-${nextId++}`,
      name: file.name,
      size: file.size,
      state: refusal ? 'refused' : 'waiting',
      bytesSent: 0,
      speed: null,
      secondsLeft: null,
      reason: refusal ?? null,
      resumedFrom: null,
      stored: null,
      uploadUrl: null,
    };
  }

  get snapshot(): UploadSnapshot {
    return this.snap;
  }

  /** Bytes the server counts against the quota already (its upload was created). */
  get created(): boolean {
    return this.snap.uploadUrl !== null;
  }

  onChange(listener: (snapshot: UploadSnapshot) => void) {
    this.listener = listener;
  }

  private set(patch: Partial<UploadSnapshot>) {
    this.snap = { ...this.snap, ...patch };
    this.listener(this.snap);
  }

  private createUpload(): TusUpload {
    const { type, chunkBytes, batch } = this.options;
    const metadata: Record<string, string> = { [UPLOAD_METADATA_KEYS.name]: this.file.name, [UPLOAD_METADATA_KEYS.type]: type };
    if (batch) {
      metadata[UPLOAD_METADATA_KEYS.batch] = batch.id;
      metadata[UPLOAD_METADATA_KEYS.batchFiles] = String(batch.files);
      metadata[UPLOAD_METADATA_KEYS.batchBytes] = String(batch.bytes);
    }
    // tus-js-client calls nothing after an abort; a call outside a run (a late progress event) changes nothing.
    const sending = () => this.snap.state === 'uploading';
    return new tus.Upload(this.file, {
      // Absolute: tus-js-client resolves the server's (relative) Location against it.
      endpoint: tusEndpoint(),
      chunkSize: chunkBytes,
      retryDelays: [0, 1000, 3000, 5000],
      onShouldRetry: retriesByItself,
      metadata,
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent) => {
        if (sending()) this.progress(sent);
      },
      onUploadUrlAvailable: () => {
        if (sending()) this.set({ uploadUrl: this.upload?.url ?? null });
      },
      onAfterResponse: (req: TusRequest, res: TusResponse) => {
        if (!sending()) return;
        // Continuing an earlier upload: HEAD says how much the server already has.
        if (req.getMethod() === 'HEAD' && this.snap.resumedFrom === null && this.snap.bytesSent === 0) {
          const offset = Number(res.getHeader('Upload-Offset'));
          if (offset > 0) this.set({ resumedFrom: offset, bytesSent: offset });
        }
        const stored = storedFromHeader(res.getHeader(UPLOAD_STORED_HEADER));
        if (stored) this.set({ stored });
      },
      onSuccess: () => {
        if (!sending()) return;
        this.run++;
        this.set({ state: 'done', bytesSent: this.file.size, speed: null, secondsLeft: null, reason: null });
      },
      onError: (error) => {
        if (!sending()) return;
        this.run++;
        const { reason, retryable } = describeTusError(error);
        // Refused for good: nothing will continue it, so neither this browser nor the server keeps it.
        if (!retryable && this.upload?.url) this.released = releaseUpload(this.upload.url);
        this.set({ state: retryable ? 'failed' : 'refused', reason, speed: null, secondsLeft: null });
      },
    });
  }

  private progress(sent: number) {
    const at = Date.now();
    this.samples.push({ at, bytes: sent });
    while (this.samples.length > 2 && at - this.samples[1]!.at >= SPEED_WINDOW_MS) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = at - first.at;
    const speed = elapsed >= SPEED_MIN_MS ? ((sent - first.bytes) * 1000) / elapsed : this.snap.speed;
    const secondsLeft = speed && speed > 0 ? (this.file.size - sent) / speed : null;
    this.set({ bytesSent: sent, speed: speed ?? null, secondsLeft });
  }

  /** Starts (or continues) sending: an upload this browser began earlier continues from the server's offset. */
  async start(): Promise<void> {
    if (this.snap.state !== 'waiting') return;
    const run = ++this.run;
    this.samples = [];
    this.set({ state: 'uploading', reason: null, speed: null, secondsLeft: null });
    try {
      this.upload ??= this.createUpload();
      if (!this.prepared) {
        const previous = await this.upload.findPreviousUploads();
        if (run !== this.run) return; // cancelled or paused meanwhile
        if (previous[0]) {
          this.upload.resumeFromPreviousUpload(previous[0]);
          this.set({ uploadUrl: this.upload.url });
        }
        this.prepared = true;
      }
      this.upload.start();
    } catch (error) {
      if (run !== this.run) return;
      this.run++;
      this.set({ state: 'failed', reason: error instanceof Error ? error.message : String(error) });
    }
  }

  /** Stops sending; what the server has stays for `resume`. */
  pause() {
    if (this.snap.state !== 'uploading') return;
    this.run++;
    void this.upload?.abort(false);
    this.set({ state: 'paused', speed: null, secondsLeft: null });
  }

  /** Back in line (the queue starts it when there is room). */
  resume() {
    if (this.snap.state === 'paused' || this.snap.state === 'failed') this.set({ state: 'waiting', reason: null });
  }

  retry() {
    this.resume();
  }

  /**
   * Stops for good; the server forgets what it had (tus termination). Settles once the server has
   * answered the termination (at once when there is nothing to terminate); it never rejects.
   */
  cancel(): Promise<void> {
    if (!['waiting', 'uploading', 'paused', 'failed'].includes(this.snap.state)) return Promise.resolve();
    this.run++;
    // A failed termination (offline) leaves the server's copy to expire on its own.
    const terminated = this.upload ? this.upload.abort(true).catch(() => undefined) : Promise.resolve();
    this.set({ state: 'cancelled', speed: null, secondsLeft: null, reason: null });
    return terminated;
  }
}

/** `cancelled`: an upload the server had was cancelled, and the server has answered its termination (its bytes no longer count). */
export type QueueEvent = { kind: 'done' | 'failed' | 'refused' | 'cancelled'; upload: UploadSnapshot };

/**
 * The uploads of a page, at most `concurrency` sending at once. The snapshots array is replaced on
 * every change (for `useSyncExternalStore`).
 */
export class UploadQueue {
  private uploads: FileUpload[] = [];
  private snapshots: readonly UploadSnapshot[] = [];
  private readonly subscribers = new Set<() => void>();
  private readonly watchers = new Set<(event: QueueEvent) => void>();

  /** Where this queue's uploads are on the server. */
  get uploadUrls(): string[] {
    return this.snapshots.flatMap((s) => (s.uploadUrl ? [s.uploadUrl] : []));
  }

  constructor(private readonly concurrency: number) {}

  subscribe = (subscriber: () => void) => {
    this.subscribers.add(subscriber);
    return () => void this.subscribers.delete(subscriber);
  };

  getSnapshot = () => this.snapshots;

  /** Finished, failed, refused and cancelled files, as they happen (a cancel only once the server has forgotten an upload it had). */
  watch(watcher: (event: QueueEvent) => void) {
    this.watchers.add(watcher);
    return () => void this.watchers.delete(watcher);
  }

  /** Bytes queued here that the server does not count against the quota yet (not started). */
  get uncountedBytes(): number {
    return this.uploads.filter((u) => ['waiting', 'uploading', 'paused'].includes(u.snapshot.state) && !u.created).reduce((sum, u) => sum + u.snapshot.size, 0);
  }

  get busy(): boolean {
    return this.snapshots.some((s) => s.state === 'uploading' || s.state === 'waiting');
  }

  /**
   * Files chosen together: each is checked against the limits first (a refused one is listed with
   * its reason and never sent); as a `batch` they also carry the batch's id, count and bytes, so the
   * server holds the batch limits too.
   */
  choose(files: readonly File[], limits: UploadLimits, { batch = true }: { batch?: boolean } = {}) {
    const decisions = checkBatch(files, limits, { uncountedBytes: this.uncountedBytes, batch });
    const accepted = decisions.filter((d) => d.ok);
    const info = batch ? { id: newBatchId(), files: accepted.length, bytes: accepted.reduce((sum, d) => sum + d.file.size, 0) } : undefined;
    this.add(decisions.map((d) => (d.ok ? new FileUpload(d.file, { type: d.type, chunkBytes: limits.chunkBytes, batch: info }) : new FileUpload(d.file, { type: '', chunkBytes: limits.chunkBytes }, d.reason))));
  }

  /** Adds files (refused ones with their reason) and starts what there is room for. */
  add(uploads: FileUpload[]) {
    for (const upload of uploads) {
      upload.onChange((snapshot) => this.changed(snapshot));
      this.uploads.push(upload);
      if (upload.snapshot.state === 'refused') this.emit({ kind: 'refused', upload: upload.snapshot });
    }
    this.publish();
    this.pump();
  }

  private changed(snapshot: UploadSnapshot) {
    const before = this.snapshots.find((s) => s.id === snapshot.id)?.state;
    this.publish();
    if (before !== snapshot.state) {
      if (snapshot.state === 'done') this.emit({ kind: 'done', upload: snapshot });
      if (snapshot.state === 'failed') this.emit({ kind: 'failed', upload: snapshot });
      if (snapshot.state === 'refused') {
        // One the server had is announced once the server has let it go (its bytes no longer count), as a cancel is.
        const upload = this.find(snapshot.id);
        if (snapshot.uploadUrl && upload) void upload.released.then(() => this.emit({ kind: 'refused', upload: snapshot }));
        else this.emit({ kind: 'refused', upload: snapshot });
      }
      this.pump();
    }
  }

  private emit(event: QueueEvent) {
    for (const watcher of this.watchers) watcher(event);
  }

  private publish() {
    this.snapshots = this.uploads.map((u) => u.snapshot);
    for (const subscriber of this.subscribers) subscriber();
  }

  private pumping = false;

  /** Starts waiting files while fewer than `concurrency` are sending (a start changes state at once, so this counts right). */
  private pump() {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const running = this.uploads.filter((u) => u.snapshot.state === 'uploading').length;
        const next = this.uploads.find((u) => u.snapshot.state === 'waiting');
        if (running >= this.concurrency || !next) break;
        void next.start();
      }
    } finally {
      this.pumping = false;
    }
  }

  private find(id: string) {
    return this.uploads.find((u) => u.snapshot.id === id);
  }

  pause = (id: string) => this.find(id)?.pause();
  resume = (id: string) => this.find(id)?.resume();
  retry = (id: string) => this.find(id)?.retry();

  /** Cancels a file; if the server had its upload (counted against the space), watchers hear of it once the termination has settled. */
  cancel = (id: string) => {
    const upload = this.find(id);
    if (!upload) return;
    const { state, uploadUrl } = upload.snapshot;
    const terminated = upload.cancel();
    if (uploadUrl === null || upload.snapshot.state === state) return;
    void terminated.then(() => this.emit({ kind: 'cancelled', upload: upload.snapshot }));
  };

  /** Takes rows that are over (done, cancelled, refused) off the list; `id` one row, else all of them. */
  clearFinished(id?: string) {
    this.drop((u) => ['done', 'cancelled', 'refused'].includes(u.snapshot.state) && (id === undefined || u.snapshot.id === id));
  }

  /** Takes off the rows of a stored file deleted since: their Download would find nothing. */
  forgetStored(storedId: number) {
    this.drop((u) => u.snapshot.state === 'done' && u.snapshot.stored?.id === storedId);
  }

  private drop(gone: (upload: FileUpload) => boolean) {
    if (!this.uploads.some(gone)) return;
    this.uploads = this.uploads.filter((u) => !gone(u));
    this.publish();
  }

  /** Stops everything and empties the list (tests, and leaving for good). */
  reset() {
    for (const upload of this.uploads) upload.pause();
    this.uploads = [];
    this.publish();
  }
}
