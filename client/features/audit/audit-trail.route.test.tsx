import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { auditApi, type AuditEntry } from '@contracts/audit.contract';
import { fakeBff, renderApp, signedInAs } from '@/test-support/test-utils';
import { handle } from '@/test-support/test-server';
import { formatWhen } from '@/lib/format';

const pause: AuditEntry = {
  id: 7,
  at: '2026-11-26T09:12:00.000Z',
  actor: { id: 3, email: 'desk@frontdesk.test', name: 'Dana Desk', role: 'staff' },
  kind: 'member',
  action: 'paused',
  subjectId: '41',
  subject: 'Ada Lovelace <ada@members.example>',
  changes: [{ field: 'membership', before: 'active', after: 'paused' }],
};
const doorOff: AuditEntry = { ...pause, id: 8, kind: 'door_access', action: 'switched off', changes: [{ field: 'accessEnabled', before: true, after: false }] };
const dayPass: AuditEntry = { ...pause, id: 9, kind: 'access_link', action: 'created', subject: 'Day pass: Ada Lovelace', changes: [{ field: 'valid_until', before: null, after: '2026-11-26T23:59:00.000Z' }] };

function setup(path: string, entries: AuditEntry[], extra = [] as Parameters<typeof fakeBff>[0]) {
  const api = fakeBff(
    [
      ...(extra ?? []),
      handle(auditApi.list, ({ query: { page, pageSize, kind } }) => {
        const found = entries.filter((e) => !kind || e.kind === kind).sort((a, b) => b.id - a.id);
        return { items: found.slice(page * pageSize, (page + 1) * pageSize), page, pageSize, total: found.length };
      }),
    ],
    { signedIn: true },
  );
  renderApp(path);
  return { api, user: userEvent.setup() };
}
const auditCalls = (api: { calls: { path: string }[] }) => api.calls.filter((c) => c.path.startsWith('/api/audit')).map((c) => c.path);

describe('/shell/audit', () => {
  it('shows who changed what, newest first, with each field before and after', async () => {
    setup('/shell/audit', [pause, doorOff]);
    const table = await screen.findByRole('table', { name: /audit trail/i });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Door access switched off');
    expect(first).toHaveTextContent('access enabled: yes → no');
    expect(second).toHaveTextContent('Dana Desk');
    expect(second).toHaveTextContent('desk@frontdesk.test · staff');
    expect(second).toHaveTextContent('Member paused');
    expect(second).toHaveTextContent('Ada Lovelace <ada@members.example>');
    expect(second).toHaveTextContent('membership: active → paused');
  });

  it('says a stored instant in the reader’s zone, as the rest of the page does', async () => {
    setup('/shell/audit', [dayPass]);
    const table = await screen.findByRole('table', { name: /audit trail/i });
    const [row] = within(table).getAllByRole('row').slice(1);
    expect(row).toHaveTextContent(`valid until: ${formatWhen('2026-11-26T23:59:00.000Z')}`);
    expect(row).not.toHaveTextContent('2026-11-26T23:59');
  });

  it('keeps its filters in the URL, sends days as local midnights, and exports what it shows', async () => {
    const { api, user } = setup('/shell/audit?kind=member&from=2026-11-20&to=2026-11-26&pageSize=25', [pause, doorOff]);
    await screen.findByRole('table', { name: /audit trail/i });
    const since = new Date(2026, 10, 20).toISOString();
    const before = new Date(2026, 10, 27).toISOString();
    const filter = `kind=member&since=${encodeURIComponent(since)}&before=${encodeURIComponent(before)}`;
    expect(auditCalls(api)).toEqual([`/api/audit?page=0&pageSize=25&${filter}`]);
    expect(screen.getByRole('link', { name: /export csv/i })).toHaveAttribute('href', `/api/audit/export.csv?${filter}`);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'Door access');
    expect(await screen.findByText('Door access switched off')).toBeInTheDocument();
    expect(auditCalls(api).at(-1)).toContain('kind=door_access');
  });

  it('after years says "1,000+", and its Next link carries the cursor into the address and the read, filters kept', async () => {
    const api = fakeBff(
      [
        handle(auditApi.list, ({ query: { page, pageSize, next } }) =>
          next === 'c0'
            ? { items: [doorOff], page: 1, pageSize, total: 1_010, totalIsLowerBound: true, next: 'c1', previous: 'p1' }
            : { items: [pause], page, pageSize, total: 1_000, totalIsLowerBound: true, next: 'c0' },
        ),
      ],
      { signedIn: true },
    );
    renderApp('/shell/audit?kind=member');
    const user = userEvent.setup();
    expect(await screen.findByText('Showing 1–10 of 1,000+ changes')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Next' }));
    expect(await screen.findByText('Door access switched off')).toBeInTheDocument();
    expect(auditCalls(api).at(-1)).toBe('/api/audit?page=1&next=c0&pageSize=10&kind=member');
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/shell/audit?kind=member&page=3&next=c1');
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/shell/audit?kind=member');
  });

  it('says which params of a link it could not use, and offers to clear a filter that matches nothing', async () => {
    setup('/shell/audit?kind=coffee&from=2026-02-30&person=nobody', []);
    expect(await screen.findByText('No changes match these filters')).toBeInTheDocument();
    const banner = screen.getByText(/^This link had filters/).closest('.banner') as HTMLElement;
    expect(banner).toHaveTextContent('kind=coffee');
    expect(banner).toHaveTextContent('from=2026-02-30: a day is written YYYY-MM-DD');
  });

  it('is for admins: staff get the 403 screen inside the shell, and the API is never asked', async () => {
    const { api } = setup('/shell/audit', [pause], [signedInAs({ role: 'staff' })]);
    expect((await screen.findAllByText(/This page is for admins/))[0]).toBeVisible();
    expect(screen.getByRole('navigation', { name: 'Staff shell' })).toBeInTheDocument();
    expect(auditCalls(api)).toEqual([]);
  });
});
