import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { Upload as FakeUpload } from '@/test-support/tus.fake-api';
import { singleQueue } from './upload-queues';
import { MB, fakeUploads, sizedFile, storedUpload } from '@/test-support/uploads.fake-api';

jest.mock('tus-js-client', () => jest.requireActual('@/test-support/tus.fake-api'));

afterEach(() => {
  singleQueue.reset();
  FakeUpload.reset();
  jest.restoreAllMocks();
});

const file = sizedFile;

async function setup() {
  const fake = fakeUploads();
  const api = fakeBff(fake.handlers, { signedIn: true });
  renderApp('/shell/upload/1');
  await screen.findByRole('heading', { name: 'Upload a file', level: 1 });
  return { api, fake, user: userEvent.setup({ applyAccept: false }) };
}

const choose = (user: ReturnType<typeof userEvent.setup>, ...files: File[]) => user.upload(screen.getByLabelText('Choose a file'), files);
const current = () => screen.getByRole('region', { name: /^(Your upload|Uploaded)$/ });
const drive = (fn: () => void) => act(fn);

describe('/shell/upload/1', () => {
  it('says the limits in words and offers one file to choose', async () => {
    await setup();
    const limits = screen.getByRole('region', { name: 'What you can upload' });
    expect(limits).toHaveTextContent('Each fileup to 250 MB');
    expect(limits).toHaveTextContent('PDF, CSV, TXT, LOG, MD, DOCX');
    expect(limits).not.toHaveTextContent('At once');
    const zone = screen.getByRole('region', { name: 'Drag a file here' });
    expect(zone).toHaveAccessibleDescription('One file, up to 250 MB.');
    expect(screen.getByLabelText('Choose a file')).toHaveAttribute('type', 'file');
    expect(screen.getByLabelText('Choose a file')).not.toHaveAttribute('multiple');
    expect(within(zone).getByRole('button', { name: 'Choose a file' })).toBeInTheDocument();
  });

  it('shows bytes, percent, speed and time left while the file goes, then the stored file with its download link', async () => {
    let now = 1_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
    const { user } = await setup();
    await choose(user, file('report.pdf', 10 * MB, 'application/pdf'));
    const upload = FakeUpload.of('report.pdf');
    expect(upload.options.metadata).toEqual({ filename: 'report.pdf', filetype: 'application/pdf' });
    expect(screen.getByRole('heading', { name: 'Your upload' })).toHaveFocus();
    // The chooser gives way while the file goes.
    expect(screen.queryByRole('button', { name: 'Choose a file' })).not.toBeInTheDocument();

    drive(() => upload.progress(1 * MB));
    expect(current()).toHaveTextContent('1 MB of 10 MB · 10% · measuring speed…');
    now += 2000;
    drive(() => upload.progress(5 * MB));
    const bar = within(current()).getByRole('progressbar', { name: 'Upload of report.pdf' });
    expect(bar).toHaveAttribute('aria-valuenow', '50');
    expect(bar).toHaveAttribute('aria-valuetext', '50%, 5 MB of 10 MB');
    expect(current()).toHaveTextContent('5 MB of 10 MB · 50% · 2 MB/s · about 3 s left');

    const stored = storedUpload(7, { name: 'report.pdf', size: 10 * MB });
    drive(() => upload.succeed(stored));
    expect(screen.getByRole('heading', { name: 'Uploaded' })).toBeInTheDocument();
    expect(within(current()).getByText('Done')).toBeInTheDocument();
    expect(current()).toHaveTextContent('Stored as report.pdf (10 MB).');
    expect(within(current()).getByRole('link', { name: 'Download report.pdf' })).toHaveAttribute('href', '/api/uploads/7/download');
    expect(await screen.findByText('report.pdf is uploaded.')).toBeInTheDocument();
    // Another file can be chosen now.
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeInTheDocument();
  });

  it('pauses and resumes', async () => {
    const { user } = await setup();
    await choose(user, file('video.png', 8 * MB, 'image/png'));
    const upload = FakeUpload.of('video.png');
    drive(() => upload.progress(2 * MB));
    await user.click(screen.getByRole('button', { name: 'Pause video.png' }));
    expect(within(current()).getByText('Paused')).toBeInTheDocument();
    expect(upload).toMatchObject({ aborted: true, terminated: false });
    expect(current()).toHaveTextContent('2 MB of 8 MB · 25%');
    // The same button resumes (the focus stays on it).
    const resume = screen.getByRole('button', { name: 'Resume video.png' });
    expect(resume).toHaveFocus();
    await user.click(resume);
    expect(within(current()).getByText('Uploading')).toBeInTheDocument();
    await waitFor(() => expect(upload.starts).toBe(2));
    expect(upload.aborted).toBe(false);
  });

  it('refuses a file over the limit before sending anything', async () => {
    const { user } = await setup();
    await choose(user, file('holiday.jpg', 312 * MB, 'image/jpeg'));
    expect(within(current()).getByText('Refused')).toBeInTheDocument();
    expect(current()).toHaveTextContent('This file is 312 MB; the limit is 250 MB per file.');
    expect(FakeUpload.instances).toEqual([]);
    expect(await screen.findByText('holiday.jpg was refused: This file is 312 MB; the limit is 250 MB per file.')).toBeInTheDocument();
    // Choosing again replaces it.
    await choose(user, file('small.jpg', 3 * MB, 'image/jpeg'));
    expect(screen.queryByText('holiday.jpg')).not.toBeInTheDocument();
    expect(FakeUpload.instances.map((u) => u.file.name)).toEqual(['small.jpg']);
  });

  it('refuses a file whose kind is not accepted', async () => {
    const { user } = await setup();
    await choose(user, file('script.sh', 300, 'application/x-sh'));
    expect(current()).toHaveTextContent('.sh files are not accepted. Accepted: PNG, JPG');
    await choose(user, file('photo.png', 300, 'video/mp4'));
    expect(current()).toHaveTextContent('The file says it is video/mp4, which is not what a .png file holds.');
    expect(FakeUpload.instances).toEqual([]);
  });

  it('takes the first of several files dropped on it, and says so', async () => {
    await setup();
    const files = [file('a.pdf', 100, 'application/pdf'), file('b.pdf', 100, 'application/pdf')];
    fireEvent.drop(screen.getByRole('region', { name: 'Drag a file here' }), { dataTransfer: { files, types: ['Files'] } });
    expect(FakeUpload.instances.map((u) => u.file.name)).toEqual(['a.pdf']);
    expect(screen.getByText('One file at a time here: a.pdf was taken, the other 1 left out.')).toBeInTheDocument();
  });

  it('cancels: the upload stops, the server forgets it and the space used is read again', async () => {
    const { user, api, fake } = await setup();
    const limitReads = () => api.calls.filter((c) => c.path === '/api/uploads/limits').length;
    await choose(user, file('draft.docx', 4 * MB, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'));
    const upload = FakeUpload.of('draft.docx');
    drive(() => upload.progress(1 * MB));
    const before = limitReads();
    // Meanwhile another tab stored a file: the figure read again says so.
    fake.limits = { ...fake.limits, usedBytes: 150 * MB };
    await user.click(screen.getByRole('button', { name: 'Cancel draft.docx' }));
    expect(within(current()).getByText('Cancelled')).toBeInTheDocument();
    expect(upload).toMatchObject({ aborted: true, terminated: true });
    expect(screen.getByRole('button', { name: 'Choose a file' })).toBeInTheDocument();
    await waitFor(() => expect(limitReads()).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByRole('region', { name: 'What you can upload' })).toHaveTextContent('150 MB of 2 GB used'));
    expect(await screen.findByText('draft.docx was cancelled.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove draft.docx from the list' }));
    expect(screen.queryByRole('region', { name: 'Your upload' })).not.toBeInTheDocument();
  });

  it('lists an upload this browser did not finish, and continues it from the server’s offset when the file is chosen again', async () => {
    FakeUpload.remember('long.pdf', 'http://localhost/api/uploads/tus/abc', 20 * MB);
    const { user } = await setup();
    const banner = await screen.findByRole('region', { name: 'An upload did not finish' });
    expect(banner).toHaveTextContent('Choose the same file again to continue where it stopped');
    expect(banner).toHaveTextContent('long.pdf · 20 MB · started');

    await choose(user, file('long.pdf', 20 * MB, 'application/pdf'));
    const upload = FakeUpload.of('long.pdf');
    await waitFor(() => expect(upload.starts).toBe(1));
    expect(upload.resumedFrom?.uploadUrl).toBe('http://localhost/api/uploads/tus/abc');
    drive(() => upload.resumedAt(12 * MB));
    expect(current()).toHaveTextContent('12 MB of 20 MB · 60%');
    expect(current()).toHaveTextContent('continued from 12 MB');
    // It is under way again: no longer offered as unfinished.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'An upload did not finish' })).not.toBeInTheDocument());
  });

  it('forgets an unfinished upload on request: the server ends it and the space it held is read again', async () => {
    FakeUpload.remember('old.pdf', 'http://localhost/api/uploads/tus/old', 5 * MB);
    const { user, api } = await setup();
    const limitReads = () => api.calls.filter((c) => c.path === '/api/uploads/limits').length;
    const before = limitReads();
    await user.click(await screen.findByRole('button', { name: 'Forget old.pdf' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'An upload did not finish' })).not.toBeInTheDocument());
    expect(FakeUpload.terminatedUrls).toEqual(['http://localhost/api/uploads/tus/old']);
    await waitFor(() => expect(limitReads()).toBeGreaterThan(before));
  });

  it('shows the server’s reason when the bytes do not match the type (a 415 problem)', async () => {
    const { user } = await setup();
    await choose(user, file('fake.png', 4000, 'image/png'));
    drive(() => FakeUpload.of('fake.png').failWith(415, 'fake.png does not hold what a image/png file holds (its first bytes say otherwise), so nothing was stored.'));
    expect(within(current()).getByText('Refused')).toBeInTheDocument();
    expect(current()).toHaveTextContent('fake.png does not hold what a image/png file holds');
    expect(await screen.findByText(/^fake\.png was refused: fake\.png does not hold/)).toBeInTheDocument();
  });

  it('says a lost session plainly and lets the file go on after signing in', async () => {
    const { user } = await setup();
    await choose(user, file('a.pdf', 4000, 'application/pdf'));
    drive(() => FakeUpload.of('a.pdf').failWith(401, 'You need to sign in.'));
    expect(within(current()).getByText('Failed')).toBeInTheDocument();
    expect(current()).toHaveTextContent('Your session has ended. Sign in again (in another tab), then retry.');
    expect(screen.getByRole('button', { name: 'Retry a.pdf' })).toBeInTheDocument();
  });
});
