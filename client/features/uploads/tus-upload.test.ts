import { UPLOAD_STORED_HEADER } from '@contracts/uploads.contract';
import { DetailedError, Upload as FakeUpload } from '@/test-support/tus.fake-api';
import { FileUpload, UploadQueue, describeTusError, findUnfinishedUploads, retriesByItself, storedFromHeader, type QueueEvent } from './tus-upload';
import { LIMITS, MB, storedUpload } from '@/test-support/uploads.fake-api';

jest.mock('tus-js-client', () => jest.requireActual('@/test-support/tus.fake-api'));

afterEach(() => FakeUpload.reset());

const file = (name: string, size = 1000, type = 'application/pdf') => {
  const f = new File(['x'], name, { type });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('describeTusError', () => {
  const response = (status: number, body: string) => new DetailedError('tus: …', { getStatus: () => status, getHeader: () => undefined, getBody: () => body } as never);

  it('gives the problem’s detail, and whether trying again may help', () => {
    expect(describeTusError(response(413, JSON.stringify({ status: 413, title: 'Payload Too Large', detail: 'At most 10 files at once.' })))).toEqual({ reason: 'At most 10 files at once.', retryable: false });
    expect(describeTusError(response(415, 'not json'))).toEqual({ reason: 'The server refused this file (415).', retryable: false });
    expect(describeTusError(response(500, JSON.stringify({ status: 500, title: 'Internal Server Error', detail: 'The upload could not be stored.' })))).toEqual({ reason: 'The upload could not be stored.', retryable: true });
    expect(describeTusError(response(401, '{}'))).toMatchObject({ retryable: true, reason: expect.stringMatching(/session has ended/) });
    // nginx's own page, not the app's problem: a proxy in front refused the chunk.
    expect(describeTusError(response(413, '<html><head><title>413 Request Entity Too Large</title></head></html>'))).toEqual({ reason: expect.stringMatching(/^A server in front of the app refused part of this file as too large \(413\)/), retryable: false });
    expect(describeTusError(new DetailedError('tus: failed', null))).toEqual({ reason: 'Could not reach the server. Retry continues where it stopped.', retryable: true });
  });

  it('tries again by itself after no answer, a 5xx, 409, 423, and a 408 (the server stopped waiting for a stalled chunk); never after another 4xx', () => {
    const retried = [0, 408, 409, 423, 500, 502, 503].map((status) => (status ? response(status, '{}') : new DetailedError('tus: failed', null)));
    expect(retried.map(retriesByItself)).toEqual(retried.map(() => true));
    expect([400, 401, 403, 404, 413, 415].map((status) => retriesByItself(response(status, '{}')))).toEqual(Array(6).fill(false));
  });
});

it('reads the stored file from Upload-Stored (URI-encoded JSON), and nothing from anything else', () => {
  const stored = storedUpload(3, { name: 'Zoë’s menu.pdf' });
  expect(storedFromHeader(encodeURIComponent(JSON.stringify(stored)))).toEqual(stored);
  expect(storedFromHeader(undefined)).toBeNull();
  expect(storedFromHeader('%E0%A4%A')).toBeNull();
  expect(storedFromHeader(encodeURIComponent(JSON.stringify({ id: 'x' })))).toBeNull();
  expect(UPLOAD_STORED_HEADER).toBe('Upload-Stored');
});

describe('FileUpload', () => {
  it('goes waiting → uploading → done, and ignores what tus says after a cancel', async () => {
    const upload = new FileUpload(file('a.pdf', 4 * MB), { type: 'application/pdf', chunkBytes: MB });
    const states: string[] = [];
    upload.onChange((s) => states.push(s.state));
    await upload.start();
    const tus = FakeUpload.of('a.pdf');
    expect(tus.starts).toBe(1);
    tus.progress(MB);
    expect(upload.created).toBe(true);
    tus.succeed(storedUpload(5));
    expect(upload.snapshot).toMatchObject({ state: 'done', bytesSent: 4 * MB, stored: { id: 5 } });
    upload.cancel(); // over: nothing happens
    expect(upload.snapshot.state).toBe('done');
    expect(states.filter((s, i) => s !== states[i - 1])).toEqual(['uploading', 'done']);
  });

  it('forgets an upload the server refused for good, and keeps one that may still go on', async () => {
    FakeUpload.remember('refused.pdf', 'http://localhost/api/uploads/tus/r1', 1000);
    FakeUpload.remember('dropped.pdf', 'http://localhost/api/uploads/tus/d1', 1000);
    expect((await findUnfinishedUploads()).map((u) => u.name)).toEqual(['refused.pdf', 'dropped.pdf']);
    const refused = new FileUpload(file('refused.pdf'), { type: 'application/pdf', chunkBytes: MB });
    const dropped = new FileUpload(file('dropped.pdf'), { type: 'application/pdf', chunkBytes: MB });
    await refused.start();
    await dropped.start();
    expect(refused.snapshot.uploadUrl).toBe('http://localhost/api/uploads/tus/r1');
    FakeUpload.of('refused.pdf').failWith(415, 'Not a PDF.');
    FakeUpload.of('dropped.pdf').failOffline();
    await flush();
    expect(refused.snapshot).toMatchObject({ state: 'refused', reason: 'Not a PDF.' });
    expect(dropped.snapshot.state).toBe('failed');
    // The server lets the refused one go too (its bytes stop counting); the dropped one is kept to go on.
    await refused.released;
    expect(FakeUpload.terminatedUrls).toEqual(['http://localhost/api/uploads/tus/r1']);
    expect(await findUnfinishedUploads()).toEqual([
      { key: expect.any(String), url: 'http://localhost/api/uploads/tus/d1', name: 'dropped.pdf', size: 1000, startedAt: '2026-03-01T09:30:00.000Z' },
    ]);
  });

  it('stops looking for an earlier upload when cancelled meanwhile', async () => {
    const upload = new FileUpload(file('b.pdf'), { type: 'application/pdf', chunkBytes: MB });
    const started = upload.start();
    upload.cancel();
    await started;
    expect(FakeUpload.of('b.pdf').starts).toBe(0);
    expect(upload.snapshot.state).toBe('cancelled');
  });
});

describe('UploadQueue', () => {
  it('runs at most `concurrency` uploads, starting the next as each one ends, and tells its watchers', async () => {
    const queue = new UploadQueue(2);
    const events: QueueEvent['kind'][] = [];
    queue.watch((e) => events.push(e.kind));
    queue.choose([file('1.pdf'), file('2.pdf'), file('3.pdf'), file('4.exe')], LIMITS);
    await flush();
    expect(FakeUpload.sending()).toEqual(['1.pdf', '2.pdf']);
    expect(queue.getSnapshot().map((s) => s.state)).toEqual(['uploading', 'uploading', 'waiting', 'refused']);
    FakeUpload.of('1.pdf').failWith(503, 'Busy');
    await flush();
    expect(FakeUpload.sending()).toEqual(['1.pdf', '2.pdf', '3.pdf']);
    FakeUpload.of('2.pdf').succeed(storedUpload(1));
    queue.retry(queue.getSnapshot()[0]!.id);
    await flush();
    expect(queue.getSnapshot().map((s) => s.state)).toEqual(['uploading', 'done', 'uploading', 'refused']);
    expect(events).toEqual(['refused', 'failed', 'done']);
    queue.clearFinished();
    expect(queue.getSnapshot().map((s) => s.name)).toEqual(['1.pdf', '3.pdf']);
  });

  it('tells its watchers of a refusal of an upload the server had once the server has let it go', async () => {
    const queue = new UploadQueue(2);
    const events: string[] = [];
    queue.watch((e) => events.push(`${e.kind} ${e.upload.name}`));
    queue.choose([file('plan.pdf', 20 * MB)], LIMITS);
    await flush();
    FakeUpload.of('plan.pdf').created();
    let release: () => void = () => undefined;
    const terminate = jest.spyOn(FakeUpload, 'terminate').mockImplementation((url) => {
      FakeUpload.terminatedUrls.push(url);
      return new Promise<void>((resolve) => (release = resolve));
    });
    // A proxy's 413 on a chunk: the app never saw it, and would hold the upload's 20 MB for a day.
    FakeUpload.of('plan.pdf').failWith(413, '');
    await flush();
    expect(queue.getSnapshot().map((s) => s.state)).toEqual(['refused']);
    expect(FakeUpload.terminatedUrls).toEqual([queue.getSnapshot()[0]!.uploadUrl]);
    expect(events).toEqual([]);
    release();
    await flush();
    expect(events).toEqual(['refused plan.pdf']);
    terminate.mockRestore();
  });

  it('tells its watchers of a cancel once the server has answered the termination, and only for uploads the server had', async () => {
    const queue = new UploadQueue(2);
    const events: string[] = [];
    queue.watch((e) => events.push(`${e.kind} ${e.upload.name} (${e.upload.state})`));
    queue.choose([file('1.pdf'), file('2.pdf'), file('3.pdf'), file('4.pdf')], LIMITS);
    await flush();
    const id = (name: string) => queue.getSnapshot().find((s) => s.name === name)!.id;
    // Waiting: nothing was sent, nothing to tell.
    queue.cancel(id('4.pdf'));
    // Created on the server (it counts them): told once the termination is answered, or has failed (offline).
    for (const name of ['1.pdf', '2.pdf']) {
      FakeUpload.of(name).created();
      FakeUpload.of(name).holdTermination = true;
      queue.cancel(id(name));
    }
    await flush();
    expect(FakeUpload.of('1.pdf').terminated).toBe(true);
    expect(queue.getSnapshot().map((s) => s.state)).toEqual(['cancelled', 'cancelled', 'uploading', 'cancelled']);
    expect(events).toEqual([]);
    FakeUpload.of('2.pdf').answerTermination({ offline: true });
    await flush();
    expect(events).toEqual(['cancelled 2.pdf (cancelled)']);
    FakeUpload.of('1.pdf').answerTermination();
    await flush();
    expect(events).toEqual(['cancelled 2.pdf (cancelled)', 'cancelled 1.pdf (cancelled)']);
    // Under way but not created yet (its POST unanswered), and cancelling twice: nothing more to tell.
    queue.cancel(id('3.pdf'));
    queue.cancel(id('1.pdf'));
    await flush();
    expect(events).toHaveLength(2);
  });

  it('counts only files the server has not seen yet against the free space', async () => {
    const queue = new UploadQueue(1);
    queue.choose([file('1.pdf', 3 * MB), file('2.pdf', 5 * MB)], LIMITS);
    await flush();
    expect(queue.uncountedBytes).toBe(8 * MB);
    FakeUpload.of('1.pdf').created();
    expect(queue.uncountedBytes).toBe(5 * MB);
  });
});
