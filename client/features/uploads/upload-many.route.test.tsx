import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { uploadsApi } from '@contracts/uploads.contract';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { handle, problem, server } from '@/test-support/test-server';
import { Upload as FakeUpload } from '@/test-support/tus.fake-api';
import { batchQueue } from './upload-queues';
import { MB, SAM, fakeUploads, sizedFile, storedUpload, type FakeUploads } from '@/test-support/uploads.fake-api';

jest.mock('tus-js-client', () => jest.requireActual('@/test-support/tus.fake-api'));

afterEach(() => {
  batchQueue.reset();
  FakeUpload.reset();
  jest.restoreAllMocks();
});

const file = sizedFile;

async function setup(path = '/shell/upload/2', fake: FakeUploads = fakeUploads()) {
  const api = fakeBff(fake.handlers, { signedIn: true });
  renderApp(path);
  await screen.findByRole('heading', { name: 'Upload files', level: 1 });
  // The picker filters by `accept`; a real one lets "All files" through, so the page checks again.
  const user = userEvent.setup({ applyAccept: false });
  return { api, fake, user };
}

const choose = (user: ReturnType<typeof userEvent.setup>, ...files: File[]) => user.upload(screen.getByLabelText('Choose files'), files);
const chosen = () => within(screen.getByRole('list', { name: 'Files chosen' }));
const rowOf = (name: string) => chosen().getByText(name, { selector: '.upl-item-name' }).closest('li')!;
const drive = (fn: () => void) => act(fn);
const listReads = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/uploads?')).length;
const limitReads = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'GET' && c.path === '/api/uploads/limits').length;
const space = () => screen.getByRole('region', { name: 'What you can upload' });

describe('/shell/upload/2', () => {
  it('says the limits in words', async () => {
    await setup();
    const limits = screen.getByRole('region', { name: 'What you can upload' });
    expect(limits).toHaveTextContent('Each fileup to 250 MB');
    expect(limits).toHaveTextContent('up to 10 files, 1 GB together (3 send at a time)');
    expect(limits).toHaveTextContent('PNG, JPG, JPEG, GIF, WEBP, PDF, CSV');
    expect(limits).toHaveTextContent('120 MB of 2 GB used');
    expect(limits).toHaveTextContent('1.88 GB free');
    expect(within(limits).getByRole('meter', { name: 'Space used' })).toHaveAttribute('value', String(120 * MB));
    const zone = screen.getByRole('region', { name: 'Drag files here' });
    expect(zone).toHaveAccessibleDescription('Up to 10 files and 1 GB at once, 250 MB per file.');
    expect(within(zone).getByRole('button', { name: 'Choose files' })).toBeInTheDocument();
  });

  it('refuses files over the limits before anything is sent, each with its reason', async () => {
    const { user, api } = await setup('/shell/upload/2', fakeUploads({ limits: { maxBatchFiles: 3 } }));
    const readsBefore = limitReads(api);
    await choose(
      user,
      file('holiday.mov', 312 * MB, 'video/quicktime'),
      file('huge.pdf', 312 * MB, 'application/pdf'),
      file('setup.exe', 1000, 'application/x-msdownload'),
      file('a.png', 1000, 'image/png'),
      file('b.png', 1000, 'image/png'),
      file('c.png', 1000, 'image/png'),
      file('d.png', 1000, 'image/png'),
    );
    expect(within(rowOf('huge.pdf')).getByText('Refused')).toBeInTheDocument();
    expect(rowOf('huge.pdf')).toHaveTextContent('This file is 312 MB; the limit is 250 MB per file.');
    expect(rowOf('holiday.mov')).toHaveTextContent('.mov files are not accepted. Accepted: PNG, JPG');
    expect(rowOf('setup.exe')).toHaveTextContent('.exe files are not accepted.');
    expect(rowOf('d.png')).toHaveTextContent('At most 3 files can go at once: add this one again when the others are done.');
    for (const name of ['a.png', 'b.png', 'c.png']) expect(within(rowOf(name)).getByText('Uploading')).toBeInTheDocument();
    // Nothing of the refused files went to the server.
    expect(FakeUpload.instances.map((u) => u.file.name)).toEqual(['a.png', 'b.png', 'c.png']);
    expect(await screen.findByText(/huge\.pdf was refused: This file is 312 MB/)).toBeInTheDocument();
    // The four refusals of one choice read the space used again once.
    expect(limitReads(api) - readsBefore).toBe(1);
  });

  it('refuses what would make the batch too large or not fit the space left', async () => {
    const { user } = await setup('/shell/upload/2', fakeUploads({ limits: { maxBatchBytes: 300 * MB, usedBytes: 1800 * MB } }));
    await choose(user, file('one.pdf', 200 * MB, 'application/pdf'), file('two.pdf', 200 * MB, 'application/pdf'), file('small.pdf', 90 * MB, 'application/pdf'));
    expect(rowOf('two.pdf')).toHaveTextContent('It would bring this batch to 400 MB; at most 300 MB can go at once.');
    expect(rowOf('small.pdf')).toHaveTextContent('It does not fit in your space: 48 MB of 2 GB is free. Delete some files first.');
    expect(FakeUpload.instances.map((u) => u.file.name)).toEqual(['one.pdf']);
  });

  it('sends each file with its name, type and batch, shows its progress and then the stored file', async () => {
    const { user, api, fake } = await setup();
    expect(await screen.findByText('No files yet')).toBeInTheDocument();
    await choose(user, file('menu.csv', 2 * MB, 'application/vnd.ms-excel'), file('notes.md', 1 * MB, 'text/markdown'));
    const upload = FakeUpload.of('menu.csv');
    expect(upload.options).toMatchObject({
      endpoint: 'http://localhost/api/uploads/tus',
      chunkSize: 8 * MB,
      retryDelays: [0, 1000, 3000, 5000],
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
    });
    const batch = upload.options.metadata!.batch!;
    expect(batch).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    // A .csv the browser calls an Excel file goes as text/csv; a .md as text/plain.
    expect(upload.options.metadata).toEqual({ filename: 'menu.csv', filetype: 'text/csv', batch, batchFiles: '2', batchBytes: String(3 * MB) });
    expect(FakeUpload.of('notes.md').options.metadata).toMatchObject({ filetype: 'text/plain', batch });

    drive(() => upload.progress(1 * MB));
    const bar = within(rowOf('menu.csv')).getByRole('progressbar', { name: 'Upload of menu.csv' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(rowOf('menu.csv')).toHaveTextContent('1 MB of 2 MB · 50%');
    expect(screen.getByText(/2 files: 2 uploading · 1 MB of 3 MB sent/)).toBeInTheDocument();

    const stored = storedUpload(42, { name: 'menu.csv', type: 'text/csv', size: 2 * MB, uploadedBy: { id: 1, name: 'Administrator' } });
    const readsBefore = listReads(api);
    fake.files.push(stored);
    drive(() => upload.succeed(stored));
    expect(within(rowOf('menu.csv')).getByText('Done')).toBeInTheDocument();
    expect(within(rowOf('menu.csv')).getByRole('link', { name: 'Download menu.csv' })).toHaveAttribute('href', '/api/uploads/42/download');
    expect(await screen.findByText('menu.csv is uploaded.')).toBeInTheDocument();
    // The stored list reads again and shows it.
    await waitFor(() => expect(listReads(api)).toBeGreaterThan(readsBefore));
    const table = await screen.findByRole('table');
    expect(within(table).getByRole('link', { name: 'Download menu.csv' })).toHaveAttribute('href', '/api/uploads/42/download');
  });

  it('accepts files dropped on the zone', async () => {
    await setup();
    const zone = screen.getByRole('region', { name: 'Drag files here' });
    const files = [file('a.png', 1000, 'image/png'), file('b.txt', 10, 'text/plain')];
    const dataTransfer = { files, types: ['Files'], dropEffect: 'none' };
    fireEvent.dragEnter(zone, { dataTransfer });
    expect(zone).toHaveClass('is-over');
    expect(zone).toHaveTextContent('Let go to add them.');
    fireEvent.drop(zone, { dataTransfer });
    expect(zone).not.toHaveClass('is-over');
    expect(FakeUpload.instances.map((u) => u.file.name)).toEqual(['a.png', 'b.txt']);
  });

  it('sends at most 3 files at once; the next starts when one is done', async () => {
    const { user } = await setup();
    await choose(user, ...['1.png', '2.png', '3.png', '4.png', '5.png'].map((name) => file(name, 1000, 'image/png')));
    expect(FakeUpload.sending()).toEqual(['1.png', '2.png', '3.png']);
    expect(within(rowOf('4.png')).getByText('Waiting')).toBeInTheDocument();
    expect(within(rowOf('5.png')).getByText('Waiting')).toBeInTheDocument();
    drive(() => FakeUpload.of('2.png').succeed(storedUpload(9, { name: '2.png', type: 'image/png' })));
    await waitFor(() => expect(FakeUpload.sending()).toEqual(['1.png', '2.png', '3.png', '4.png']));
    expect(within(rowOf('4.png')).getByText('Uploading')).toBeInTheDocument();
    expect(within(rowOf('5.png')).getByText('Waiting')).toBeInTheDocument();
  });

  it('cancels one file: the server forgets it, the others go on and the next one starts', async () => {
    const { user } = await setup();
    await choose(user, ...['1.png', '2.png', '3.png', '4.png'].map((name) => file(name, 1000, 'image/png')));
    drive(() => FakeUpload.of('2.png').progress(300));
    await user.click(within(rowOf('2.png')).getByRole('button', { name: 'Cancel 2.png' }));
    expect(within(rowOf('2.png')).getByText('Cancelled')).toBeInTheDocument();
    expect(FakeUpload.of('2.png')).toMatchObject({ aborted: true, terminated: true });
    expect(FakeUpload.sending()).toEqual(['1.png', '3.png', '4.png']);
    // The focus stays where it was: the button in Cancel's place now takes the row off the list.
    expect(within(rowOf('2.png')).getByRole('button', { name: 'Remove 2.png from the list' })).toHaveFocus();
    await user.click(within(rowOf('2.png')).getByRole('button', { name: 'Remove 2.png from the list' }));
    expect(chosen().queryByText('2.png')).not.toBeInTheDocument();
  });

  it('reads the space used again once the server has forgotten a cancelled upload, and says it was cancelled', async () => {
    const { user, api, fake } = await setup();
    await choose(user, file('menu.pdf', 10 * MB, 'application/pdf'), file('big.pdf', 200 * MB, 'application/pdf'));
    const big = FakeUpload.of('big.pdf');
    drive(() => big.progress(8 * MB));
    // The server counts both from their creation on; the stored menu reads the space again.
    fake.limits = { ...fake.limits, usedBytes: 330 * MB };
    const menu = storedUpload(3, { name: 'menu.pdf', size: 10 * MB });
    fake.files.push(menu);
    drive(() => FakeUpload.of('menu.pdf').succeed(menu));
    await waitFor(() => expect(space()).toHaveTextContent('330 MB of 2 GB used'));
    // Said once things settle (news within 50 ms is said together): the menu's, before the cancel's.
    expect(await screen.findByText('menu.pdf is uploaded.')).toBeInTheDocument();

    big.holdTermination = true;
    const readsBefore = limitReads(api);
    await user.click(within(rowOf('big.pdf')).getByRole('button', { name: 'Cancel big.pdf' }));
    expect(within(rowOf('big.pdf')).getByText('Cancelled')).toBeInTheDocument();
    // Read again only once the server has answered the termination (before, it still counts the 200 MB).
    await act(async () => {}); // what the cancel set going has run
    expect(limitReads(api)).toBe(readsBefore);
    fake.limits = { ...fake.limits, usedBytes: 130 * MB };
    drive(() => big.answerTermination());
    await waitFor(() => expect(space()).toHaveTextContent('130 MB of 2 GB used'));
    expect(space()).toHaveTextContent('1.87 GB free');
    expect(within(space()).getByRole('meter', { name: 'Space used' })).toHaveAttribute('value', String(130 * MB));
    expect(await screen.findByText('big.pdf was cancelled.')).toBeInTheDocument();
    expect(screen.queryByText(/big\.pdf was refused/)).not.toBeInTheDocument();
  });

  it('cancels a waiting file without sending anything', async () => {
    const { user } = await setup();
    await choose(user, ...['1.png', '2.png', '3.png', '4.png'].map((name) => file(name, 1000, 'image/png')));
    await user.click(within(rowOf('4.png')).getByRole('button', { name: 'Cancel 4.png' }));
    expect(within(rowOf('4.png')).getByText('Cancelled')).toBeInTheDocument();
    drive(() => FakeUpload.of('1.png').succeed(storedUpload(9, { name: '1.png', type: 'image/png' })));
    expect(FakeUpload.instances.map((u) => u.file.name)).toEqual(['1.png', '2.png', '3.png']);
  });

  it('retries a failed file from where it stopped', async () => {
    const { user } = await setup();
    await choose(user, file('plan.pdf', 4 * MB, 'application/pdf'));
    const upload = FakeUpload.of('plan.pdf');
    drive(() => upload.progress(1 * MB));
    drive(() => upload.failOffline());
    expect(within(rowOf('plan.pdf')).getByText('Failed')).toBeInTheDocument();
    expect(rowOf('plan.pdf')).toHaveTextContent('Could not reach the server. Retry continues where it stopped.');
    expect(await screen.findByText(/plan\.pdf failed: Could not reach the server/)).toBeInTheDocument();

    await user.click(within(rowOf('plan.pdf')).getByRole('button', { name: 'Retry plan.pdf' }));
    expect(within(rowOf('plan.pdf')).getByText('Uploading')).toBeInTheDocument();
    // The same tus upload starts again: it asks the server for its offset and goes on from there.
    expect(FakeUpload.instances).toHaveLength(1);
    await waitFor(() => expect(upload.starts).toBe(2));
    drive(() => upload.progress(3 * MB));
    expect(rowOf('plan.pdf')).toHaveTextContent('3 MB of 4 MB · 75%');
  });

  it('shows the server’s reason when it refuses a file (a 413 problem), without a retry, and reads the space used again', async () => {
    const { user, fake } = await setup();
    await choose(user, file('scan.pdf', 4 * MB, 'application/pdf'));
    // Files uploaded in another tab took the space the page still shows as free.
    fake.limits = { ...fake.limits, usedBytes: 2048 * MB };
    drive(() => FakeUpload.of('scan.pdf').failWith(413, 'scan.pdf does not fit in your space: 2 GB of 2 GB is used. Delete some files first.'));
    expect(within(rowOf('scan.pdf')).getByText('Refused')).toBeInTheDocument();
    expect(rowOf('scan.pdf')).toHaveTextContent('scan.pdf does not fit in your space: 2 GB of 2 GB is used. Delete some files first.');
    expect(within(rowOf('scan.pdf')).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    await waitFor(() => expect(space()).toHaveTextContent('2 GB of 2 GB used'));
    expect(space()).toHaveTextContent('0 bytes free');
  });

  it('lists the stored files with size, type, who and when, and a download link each', async () => {
    const files = [storedUpload(1, { name: 'rota.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', size: 48_000 }), storedUpload(2, { name: 'floor plan.png', type: 'image/png', size: 3 * MB, uploadedBy: SAM })];
    const { api } = await setup('/shell/upload/2', fakeUploads({ files }));
    const rows = within(await screen.findByRole('table')).getAllByRole('row').slice(1);
    expect(api.calls.map((c) => c.path)).toContain('/api/uploads?page=0&pageSize=10');
    expect(rows[0]).toHaveTextContent('floor plan.png');
    expect(rows[0]).toHaveTextContent('3 MB');
    expect(rows[0]).toHaveTextContent('PNG');
    expect(rows[0]).toHaveTextContent('Sam Rivera');
    expect(within(rows[0]!).getByRole('link', { name: 'Download floor plan.png' })).toHaveAttribute('href', '/api/uploads/2/download');
    expect(rows[1]).toHaveTextContent('rota.xlsx');
    expect(rows[1]).toHaveTextContent('46.9 KB');
    expect(rows[1]).toHaveTextContent('XLSX');
    expect(rows[1]).toHaveTextContent('Administrator');
    expect(screen.getByText('Showing 1–2 of 2 files')).toBeInTheDocument();
  });

  it('pages through the stored files with ?page= (1-based)', async () => {
    const files = Array.from({ length: 13 }, (_, i) => storedUpload(i + 1));
    const { api, user } = await setup('/shell/upload/2?page=2', fakeUploads({ files }));
    expect(within(await screen.findByRole('table')).getAllByRole('row')).toHaveLength(4);
    expect(api.calls.map((c) => c.path)).toContain('/api/uploads?page=1&pageSize=10');
    expect(screen.getByText('Page 2 of 2')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Previous' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(11));
  });

  it('pages on by the cursor of its Next link, and back a page by its Previous cursor when the last file of a page is deleted', async () => {
    const files = Array.from({ length: 21 }, (_, i) => storedUpload(i + 1, { name: `file-${i + 1}.pdf` }));
    const { api, user } = await setup('/shell/upload/2', fakeUploads({ files }));
    await screen.findByRole('table');
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    const cursorOf = (id: number) => `${Date.parse(storedUpload(id).createdAt)}-${id}`;
    expect(api.calls.map((c) => c.path)).toContain(`/api/uploads?page=1&next=${cursorOf(12)}&pageSize=10`);
    await user.click(screen.getByRole('link', { name: 'Next' }));
    await screen.findByText('Page 3 of 3');
    expect(api.calls.map((c) => c.path)).toContain(`/api/uploads?page=2&next=${cursorOf(2)}&pageSize=10`);
    await user.click(screen.getByRole('button', { name: 'Delete file-1.pdf' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete file' }));
    await screen.findByText('Page 2 of 2');
    expect(api.calls.map((c) => c.path)).toContain(`/api/uploads?page=1&previous=${cursorOf(1)}&pageSize=10`);
    expect(within(screen.getByRole('table')).getAllByRole('row')[1]).toHaveTextContent('file-11.pdf');
  });

  it('deletes a stored file only after confirming', async () => {
    const files = [storedUpload(1, { name: 'old.pdf' }), storedUpload(2, { name: 'menu.pdf' })];
    const { api, user, fake } = await setup('/shell/upload/2', fakeUploads({ files }));
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Delete menu.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    expect(dialog).toHaveTextContent('menu.pdf');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete menu.pdf' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete file' }));
    expect(await screen.findByText('menu.pdf was deleted.')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2));
    expect(api.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/api/uploads/2']);
    expect(fake.files.map((f) => f.name)).toEqual(['old.pdf']);
  });

  it('takes a file off the sending list once it is deleted, so no Download of nothing stays', async () => {
    const { user, fake } = await setup();
    await choose(user, file('red.png', 1000, 'image/png'), file('blue.png', 1000, 'image/png'));
    const red = storedUpload(7, { name: 'red.png', type: 'image/png', size: 1000 });
    const blue = storedUpload(8, { name: 'blue.png', type: 'image/png', size: 1000 });
    fake.files.push(red, blue);
    drive(() => FakeUpload.of('red.png').succeed(red));
    drive(() => FakeUpload.of('blue.png').succeed(blue));
    expect(within(rowOf('red.png')).getByRole('link', { name: 'Download red.png' })).toBeInTheDocument();

    const table = await screen.findByRole('table');
    await user.click(await within(table).findByRole('button', { name: 'Delete red.png' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete file' }));
    expect(await screen.findByText('red.png was deleted.')).toBeInTheDocument();
    expect(chosen().queryByText('red.png')).not.toBeInTheDocument();
    expect(within(rowOf('blue.png')).getByRole('link', { name: 'Download blue.png' })).toBeInTheDocument();
  });

  it('offers staff the delete of their own files only', async () => {
    const files = [storedUpload(1, { name: 'mine.pdf' }), storedUpload(2, { name: 'sams.pdf', uploadedBy: SAM })];
    await setup('/shell/upload/2', fakeUploads({ files, role: 'staff' }));
    await screen.findByRole('table');
    expect(screen.getByRole('button', { name: 'Delete mine.pdf' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete sams.pdf' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download sams.pdf' })).toBeInTheDocument();
  });

  it('says so when the stored files cannot be read again, and tries again on request', async () => {
    const { user, fake } = await setup('/shell/upload/2', fakeUploads({ files: [storedUpload(1, { name: 'old.pdf' })] }));
    await screen.findByRole('table');
    await choose(user, file('new.pdf', 1000, 'application/pdf'));
    server.use(handle(uploadsApi.list, () => problem(503, 'Service Unavailable', 'The database is busy.'), { once: true }));
    fake.files.push(storedUpload(2, { name: 'new.pdf' }));
    drive(() => FakeUpload.of('new.pdf').succeed(storedUpload(2, { name: 'new.pdf' })));
    const alert = await screen.findByText('Could not refresh the stored files: The database is busy.');
    // What was there stays in sight.
    expect(screen.getByRole('link', { name: 'Download old.pdf' })).toBeInTheDocument();
    await user.click(within(alert.closest('[role=alert]') as HTMLElement).getByRole('button', { name: /Try again/ }));
    expect(await within(screen.getByRole('table')).findByRole('link', { name: 'Download new.pdf' })).toBeInTheDocument();
    expect(screen.queryByText(/Could not refresh the stored files/)).not.toBeInTheDocument();
  });

  it('keeps the uploads under way when the page is left and opened again', async () => {
    const { user } = await setup();
    await choose(user, file('big.pdf', 10 * MB, 'application/pdf'));
    drive(() => FakeUpload.of('big.pdf').progress(4 * MB));
    await user.click(screen.getByRole('link', { name: 'Upload one file' }));
    await screen.findByRole('heading', { name: 'Upload a file', level: 1 });
    drive(() => FakeUpload.of('big.pdf').progress(6 * MB));
    await user.click(screen.getByRole('link', { name: 'Upload several files' }));
    await screen.findByRole('heading', { name: 'Upload files', level: 1 });
    expect(rowOf('big.pdf')).toHaveTextContent('6 MB of 10 MB · 60%');
  });
});
