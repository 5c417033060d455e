import type { StoredUpload } from '@contracts/uploads.contract';
import { UPLOAD_STORED_HEADER } from '@contracts/uploads.contract';

/**
 * Test support: a stand-in for `tus-js-client` (jest.mock('tus-js-client', () => jest.requireActual('@/test-support/tus.fake-api'))).
 * Each `Upload` is recorded; the test drives it as the server would: created, progress, the
 * finished file (its last answer carrying `Upload-Stored`), or an error answer (a 413 problem).
 */
type Options = {
  endpoint?: string;
  chunkSize?: number;
  metadata?: Record<string, string>;
  retryDelays?: number[];
  storeFingerprintForResuming?: boolean;
  removeFingerprintOnSuccess?: boolean;
  onProgress?: (sent: number, total: number) => void;
  onSuccess?: (payload: { lastResponse: FakeResponse }) => void;
  onError?: (error: Error) => void;
  onAfterResponse?: (req: FakeRequest, res: FakeResponse) => void;
  onUploadUrlAvailable?: () => void;
};

export type PreviousUpload = { size: number | null; metadata: Record<string, string>; creationTime: string; urlStorageKey: string; uploadUrl: string | null; parallelUploadUrls: string[] | null };

class FakeRequest {
  constructor(private readonly method: string) {}
  getMethod() {
    return this.method;
  }
}

class FakeResponse {
  constructor(
    private readonly status: number,
    private readonly headers: Record<string, string> = {},
    private readonly body = '',
  ) {}
  getStatus() {
    return this.status;
  }
  getHeader(name: string) {
    return Object.entries(this.headers).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
  }
  getBody() {
    return this.body;
  }
}

export class DetailedError extends Error {
  constructor(
    message: string,
    readonly originalResponse: FakeResponse | null,
  ) {
    super(message);
  }
}

let nextUrl = 1;

export class Upload {
  static instances: Upload[] = [];
  /** What `findPreviousUploads` finds, by file name (an upload this browser began before a reload). */
  static previous = new Map<string, PreviousUpload>();
  url: string | null = null;
  starts = 0;
  aborted = false;
  terminated = false;
  resumedFrom: PreviousUpload | null = null;

  constructor(
    readonly file: File,
    readonly options: Options,
  ) {
    Upload.instances.push(this);
  }

  /** Uploads ended with `Upload.terminate` (given up from the list of unfinished ones). */
  static terminatedUrls: string[] = [];

  static reset() {
    Upload.instances = [];
    Upload.previous.clear();
    Upload.terminatedUrls = [];
    stored.clear();
  }

  static terminate(url: string): Promise<void> {
    Upload.terminatedUrls.push(url);
    return Promise.resolve();
  }

  /** This browser remembers an upload it began (as tus keeps it in localStorage), by file name. */
  static remember(name: string, url: string, size: number) {
    const entry: PreviousUpload = { size, metadata: { filename: name }, creationTime: new Date(Date.UTC(2026, 2, 1, 9, 30)).toString(), urlStorageKey: `tus::fp-${name}::${stored.size}`, uploadUrl: url, parallelUploadUrls: null };
    stored.set(entry.urlStorageKey, entry);
    Upload.previous.set(name, entry);
    return entry;
  }

  /** The newest upload of a file by that name. */
  static of(name: string): Upload {
    const found = Upload.instances.filter((u) => u.file.name === name).at(-1);
    if (!found) throw new Error(`No upload of ${name} was made (made: ${Upload.instances.map((u) => u.file.name).join(', ') || 'none'})`);
    return found;
  }

  /** Uploads started and not stopped. */
  static sending(): string[] {
    return Upload.instances.filter((u) => u.starts > 0 && !u.aborted).map((u) => u.file.name);
  }

  findPreviousUploads(): Promise<PreviousUpload[]> {
    const found = Upload.previous.get(this.file.name);
    return Promise.resolve(found ? [found] : []);
  }

  resumeFromPreviousUpload(previous: PreviousUpload) {
    this.resumedFrom = previous;
    this.url = previous.uploadUrl;
  }

  start() {
    this.starts += 1;
    this.aborted = false;
  }

  /** Set: a termination (`abort(true)`) waits for `answerTermination` instead of being answered at once. */
  holdTermination = false;
  private termination: { resolve: () => void; reject: (error: Error) => void } | null = null;

  abort(shouldTerminate?: boolean): Promise<void> {
    this.aborted = true;
    if (shouldTerminate && this.url) {
      this.terminated = true;
      forget(this.url);
      if (this.holdTermination) return new Promise((resolve, reject) => (this.termination = { resolve, reject }));
    }
    return Promise.resolve();
  }

  // ---- the server's side ----

  /** The server answers the termination held (`holdTermination`): 204, or none at all (offline). */
  answerTermination({ offline = false } = {}) {
    if (!this.termination) throw new Error(`No termination of ${this.file.name} is waiting`);
    if (offline) this.termination.reject(new DetailedError('tus: failed to terminate upload', null));
    else this.termination.resolve();
    this.termination = null;
  }

  /** The POST answered 201: the server has the upload (and counts it). */
  created() {
    this.url ??= `http://localhost/api/uploads/tus/fake-${nextUrl++}`;
    this.options.onAfterResponse?.(new FakeRequest('POST'), new FakeResponse(201, { Location: this.url }));
    this.options.onUploadUrlAvailable?.();
  }

  /** HEAD of a resumed upload: the server already has `offset` bytes. */
  resumedAt(offset: number) {
    this.options.onAfterResponse?.(new FakeRequest('HEAD'), new FakeResponse(200, { 'Upload-Offset': String(offset), 'Upload-Length': String(this.file.size) }));
    this.options.onUploadUrlAvailable?.();
    this.options.onProgress?.(offset, this.file.size);
  }

  progress(sent: number) {
    if (!this.url) this.created();
    this.options.onProgress?.(sent, this.file.size);
  }

  /** The last PATCH: every byte is in and the file is stored. */
  succeed(stored: StoredUpload) {
    if (!this.url) this.created();
    forget(this.url);
    const last = new FakeResponse(204, { 'Upload-Offset': String(this.file.size), [UPLOAD_STORED_HEADER]: encodeURIComponent(JSON.stringify(stored)) });
    this.options.onProgress?.(this.file.size, this.file.size);
    this.options.onAfterResponse?.(new FakeRequest('PATCH'), last);
    this.options.onSuccess?.({ lastResponse: last });
  }

  /** The server answered a problem (after tus's own retries, for a status it retries). */
  failWith(status: number, detail: string) {
    const body = JSON.stringify({ type: 'about:blank', title: 'Refused', status, detail });
    this.options.onError?.(new DetailedError(`tus: unexpected response, response code: ${status}, response text: ${body}`, new FakeResponse(status, { 'Content-Type': 'application/problem+json' }, body)));
  }

  /** No answer at all (offline), after tus's own retries. */
  failOffline() {
    this.options.onError?.(new DetailedError('tus: failed to upload chunk at offset 0, caused by [object ProgressEvent]', null));
  }
}

/** What tus keeps in localStorage: uploads to continue after a reload (a success removes its own). */
const stored = new Map<string, PreviousUpload>();
const forget = (url: string | null) => {
  for (const [key, entry] of stored) if (entry.uploadUrl === url) stored.delete(key);
};

export const defaultOptions = {
  urlStorage: {
    findAllUploads: () => Promise.resolve([...stored.values()]),
    removeUpload: (key: string) => Promise.resolve(void stored.delete(key)),
  },
};

export const isSupported = true;
export const canStoreURLs = true;
