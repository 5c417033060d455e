import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { gymApi } from '@contracts/gym.contract';
import type { MemberImportPreview, MemberImportRow } from '@contracts/member-import.contract';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { handle, problem } from '@/test-support/test-server';

afterEach(() => jest.restoreAllMocks());

const HASH = 'a'.repeat(64);
const row = (line: number, overrides: Partial<MemberImportRow>): MemberImportRow => ({
  line,
  name: `Person ${line}`,
  email: `person${line}@mail.test`,
  ownerEmail: 'marta@ironharbour.test',
  membership: 'active',
  outcome: 'new',
  problems: [],
  memberId: null,
  differences: [],
  ...overrides,
});
const PREVIEW: MemberImportPreview = {
  separator: ',',
  columns: [
    { header: 'name', field: 'name' },
    { header: 'email', field: 'email' },
    { header: 'owner_email', field: 'ownerEmail' },
    { header: 'Phone', field: null },
  ],
  rows: [
    row(2, { name: 'Ana Lima', email: 'ana@mail.test' }),
    row(3, { name: 'Ben Ode', email: 'ben@mail.test', outcome: 'member', memberId: 7, differences: [{ field: 'membership', member: 'paused', file: 'active' }] }),
    row(4, { name: '', email: 'not-an-email', outcome: 'problem', problems: ['No name', 'Email “not-an-email” is not an email address'] }),
  ],
  counts: { rows: 3, new: 1, members: 1, problems: 1 },
  previewHash: HASH,
};
const FILE = 'name,email,owner_email,Phone\nAna Lima,ana@mail.test,marta@ironharbour.test,1\n';

/** The fake BFF's import: `previews` answers in turn (the last one again), `confirms` likewise; each body sent is kept. */
function setup({ previews = [PREVIEW], confirms = [{ rows: 3, new: 1, members: 1, problems: 1, created: 1 }] as Array<object | 'changed'> } = {}) {
  const sent = { previews: [] as unknown[], confirms: [] as unknown[] };
  const api = fakeBff(
    [
      handle(gymApi.previewMemberImport, ({ body }) => {
        sent.previews.push(body);
        if (body.csv.startsWith('bad')) return problem(400, 'Bad Request', 'The first row must name the columns: it has no email column.');
        return previews[Math.min(sent.previews.length - 1, previews.length - 1)]!;
      }),
      handle(gymApi.confirmMemberImport, ({ body }) => {
        sent.confirms.push(body);
        const answer = confirms[Math.min(sent.confirms.length - 1, confirms.length - 1)]!;
        return answer === 'changed' ? problem(409, 'Conflict', 'The members or owners changed since this file was previewed.') : (answer as { rows: number; new: number; members: number; problems: number; created: number });
      }),
    ],
    { signedIn: true },
  );
  const view = renderApp('/shell/gymowner/users/import');
  return { ...view, api, sent, user: userEvent.setup() };
}
const csvFile = (text: string, name = 'members.csv') => new File([text], name, { type: 'text/csv' });

describe('/shell/gymowner/users/import', () => {
  it('previews a chosen file row by row, writes only on confirm, and says what it did', async () => {
    const { user, sent } = setup();
    await user.upload(await screen.findByLabelText('CSV file'), csvFile(FILE));
    const preview = await screen.findByRole('region', { name: 'Preview of members.csv' });
    expect(sent.previews).toEqual([{ csv: FILE }]);
    expect(within(preview).getByRole('status')).toHaveTextContent('3 rows: 1 new member, 1 already a member, 1 row left out with problems.');
    expect(within(preview).getByText('Columns not imported: “Phone”.')).toBeInTheDocument();
    const rows = within(preview).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['2', '3', '4']);
    expect(within(rows[0]!).getByText('New member')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Already a member')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Here the membership is paused; the file says active. Left as it is.')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Left out')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('No name')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Email “not-an-email” is not an email address')).toBeInTheDocument();
    expect(sent.confirms).toEqual([]);

    await user.selectOptions(within(preview).getByLabelText('Show'), 'problem');
    expect(within(preview).getAllByRole('row')).toHaveLength(2);

    await user.click(within(preview).getByRole('button', { name: 'Import 1 member' }));
    const done = await screen.findByRole('status', { name: 'Import done' });
    expect(sent.confirms).toEqual([{ csv: FILE, previewHash: HASH }]);
    expect(done).toHaveTextContent('Imported 1 member. 1 was already a member and was left as they are; 1 row with problems was left out.');
    expect(within(done).getByRole('link', { name: 'See the members' })).toHaveAttribute('href', '/shell/gymowner/users');
    expect(screen.queryByRole('region', { name: /Preview of/ })).not.toBeInTheDocument();
  });

  it('previews again when the members changed since the preview (409), and imports nothing until confirmed again', async () => {
    const now = { ...PREVIEW, rows: PREVIEW.rows.map((r) => (r.line === 2 ? { ...r, outcome: 'member' as const, memberId: 9 } : r)), counts: { rows: 3, new: 0, members: 2, problems: 1 }, previewHash: 'b'.repeat(64) };
    const { user, sent } = setup({ previews: [PREVIEW, now], confirms: ['changed'] });
    await user.upload(await screen.findByLabelText('CSV file'), csvFile(FILE));
    await user.click(await screen.findByRole('button', { name: 'Import 1 member' }));
    expect(await screen.findByText(/The members or owners changed since the last preview, so nothing was imported/)).toBeInTheDocument();
    await waitFor(() => expect(sent.previews).toHaveLength(2));
    const preview = screen.getByRole('region', { name: 'Preview of members.csv' });
    expect(within(preview).getByText('Nothing to import: every row that could be imported is a member already.')).toBeInTheDocument();
    expect(within(preview).queryByRole('button', { name: /^Import/ })).not.toBeInTheDocument();
    expect(sent.confirms).toHaveLength(1);
  });

  it('refuses a file over 1 MB before sending it, and shows the server’s words for a file it cannot read', async () => {
    const { user, sent } = setup();
    const input = await screen.findByLabelText('CSV file');
    await user.upload(input, csvFile('x'.repeat(1024 * 1024 + 1), 'huge.csv'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was imported. huge.csv is 1.0 MB; an import takes at most 1 MB (about 5,000 members). Split it and import each part.');
    expect(sent.previews).toEqual([]);

    await user.upload(input, csvFile('bad,header\n1,2\n', 'bad.csv'));
    expect(await screen.findByRole('alert')).toHaveTextContent('Nothing was imported. The first row must name the columns: it has no email column.');
    expect(screen.queryByRole('region', { name: /Preview of/ })).not.toBeInTheDocument();
  });

  it('previews pasted rows too', async () => {
    const { user, sent } = setup();
    await user.click(await screen.findByText('Or paste the rows'));
    const area = screen.getByLabelText('Rows, with their header row');
    await user.click(area);
    await user.paste(FILE);
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByRole('region', { name: 'Preview of the pasted rows' })).toBeInTheDocument();
    expect(sent.previews).toEqual([{ csv: FILE }]);
  });

  it('is linked from the members list as "Import from CSV"', async () => {
    fakeBff([handle(gymApi.listMembers, ({ query }) => ({ items: [], page: query.page, pageSize: query.pageSize, total: 0 })), handle(gymApi.listOwners, ({ query }) => ({ items: [], page: query.page, pageSize: query.pageSize, total: 0 }))], { signedIn: true });
    const { router } = renderApp('/shell/gymowner/users');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Import from CSV' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/shell/gymowner/users/import'));
    expect(await screen.findByRole('heading', { name: 'Import members', level: 1 })).toBeInTheDocument();
  });
});
