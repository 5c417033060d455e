import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, kisiEvent, renderApp } from '@/test-support/test-utils';
import { attendanceOf, fakeGym, member, owner, type FakeGym } from '@/test-support/gym.fake-api';

/**
 * Attendance on the desk's screens (issue 52): a member's visits today, this week and the last 12
 * weeks on their page; the list's header row, its "Visits (4 wks)" column and its filter by
 * recorded door access, kept in the address.
 */
fakeEventSourceEachTest();
afterEach(() => jest.restoreAllMocks());

const marta = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
const confirmed = (enabled: boolean) => ({ state: 'synced' as const, wantEnabled: enabled, error: null, at: '2025-03-01T09:30:00.000Z', confirmedEnabled: enabled, confirmedAt: '2025-03-01T09:30:00.000Z', waiting: null });

function desk(): FakeGym {
  const gym = fakeGym({
    owners: [marta],
    members: [
      member(1, marta, { name: 'Ada Regular', email: 'ada@desk.example', accessSync: confirmed(true) }),
      member(2, marta, { name: 'Ben Lapsed', email: 'ben@desk.example', membership: 'paused', accessSync: confirmed(false) }),
      member(3, marta, { name: 'Cy Failed', email: 'cy@desk.example', accessSync: { ...confirmed(true), state: 'failed', error: 'Kisi said no' } }),
      member(4, marta, { name: 'Dee Nobody', email: 'dee@desk.example', accessSync: { ...confirmed(true), state: 'no_kisi_user', confirmedEnabled: null } }),
    ],
  });
  gym.recentVisitDays.set(1, 9);
  gym.recentVisitDays.set(3, 1);
  gym.attendance.set(1, attendanceOf([2, 3, 0, 1, 2, 3, 2, 1, 0, 2, 3, 2], { cameToday: true, lastVisitAt: '2025-03-05T08:12:00.000Z' }));
  return gym;
}

function setup(path: string, gym: FakeGym = desk()) {
  const api = fakeBff(gym.handlers, { signedIn: true });
  const view = renderApp(path);
  return { ...view, api, gym, user: userEvent.setup() };
}
const memberCalls = (api: { calls: { method: string; path: string }[] }) => api.calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/gym/users?')).map((c) => c.path);

describe('a member’s attendance on their page', () => {
  it('says today, this week and the last 12 weeks, each week a bar that screen readers hear as its days', async () => {
    setup('/shell/gymowner/users/1');
    const card = await screen.findByRole('region', { name: 'Attendance' });
    expect(within(card).getByTestId('attendance-today')).toHaveTextContent('Came in');
    expect(within(card).getByTestId('attendance-week')).toHaveTextContent('2 days');
    expect(within(card).getByTestId('attendance-total')).toHaveTextContent('21 days1.8 a week on average');
    const weeks = within(within(card).getByRole('list', { name: 'Days they came, each of the last 12 weeks' })).getAllByRole('listitem');
    expect(weeks).toHaveLength(12);
    expect(weeks[0]).toHaveTextContent('Week of 16 Dec: 2 days');
    expect(weeks[2]).toHaveTextContent('Week of 30 Dec: 0 days');
    expect(weeks[11]).toHaveTextContent('This week, from 3 Mar: 2 days');
    expect(within(card).getByText(/Europe\/Lisbon/)).toBeInTheDocument();
  });

  it('reads again when one of the member’s unlocks arrives live, not someone else’s', async () => {
    const { api, gym } = setup('/shell/gymowner/users/1');
    const card = await screen.findByRole('region', { name: 'Attendance' });
    act(() => FakeEventSource.current().open());
    const reads = () => api.calls.filter((c) => c.path === '/api/gym/users/1/attendance').length;
    await waitFor(() => expect(reads()).toBeGreaterThanOrEqual(1));
    const before = reads();
    act(() => FakeEventSource.current().emit('webhook', kisiEvent(50, { actorEmail: 'someone@else.example' }), '30'));
    gym.attendance.set(1, attendanceOf([2, 3, 0, 1, 2, 3, 2, 1, 0, 2, 3, 3], { cameToday: true }));
    act(() => FakeEventSource.current().emit('webhook', kisiEvent(51, { actorEmail: 'ADA@desk.example' }), '31'));
    await waitFor(() => expect(within(card).getByTestId('attendance-week')).toHaveTextContent('3 days'));
    expect(reads()).toBe(before + 1);
  });

  it('says so when they have not come in 12 weeks, with when they last came', async () => {
    const gym = desk();
    gym.visits.set('ben@desk.example', '2024-06-01T08:00:00.000Z');
    setup('/shell/gymowner/users/2', gym);
    const card = await screen.findByRole('region', { name: 'Attendance' });
    expect(within(card).getByTestId('attendance-today')).toHaveTextContent('Not yet');
    expect(within(card).getByTestId('attendance-empty')).toHaveTextContent(/^No visits in the last 12 weeks; last came .*2024/);
    expect(within(card).queryByRole('list')).not.toBeInTheDocument();
  });
});

describe('the members list’s columns and door filter', () => {
  it('has a header row naming each column, and the days each member came in the last 4 weeks', async () => {
    setup('/shell/gymowner/users');
    const table = await screen.findByRole('table', { name: 'Members' });
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Member', 'Door access', 'Visits (4 wks)', 'Last visit', 'Membership', 'Delete']);
    const visits = (name: string) => within(screen.getByRole('link', { name: new RegExp(name) }).closest('tr')!).getByTestId('recent-visits');
    expect(visits('Ada Regular')).toHaveTextContent('9 days');
    expect(visits('Cy Failed')).toHaveTextContent('1 day');
    expect(visits('Ben Lapsed')).toHaveTextContent('None');
  });

  it('filters by recorded door access from its picker, keeps it in the address and the call, back to page 1', async () => {
    const { api, user, router } = setup('/shell/gymowner/users?page=2');
    await user.selectOptions(await screen.findByLabelText('Door access'), 'Door sync failed');
    await waitFor(() => expect(router.state.location.search).toBe('?access=failed'));
    const table = await screen.findByRole('table', { name: 'Members' });
    await waitFor(() => expect(within(table).getAllByRole('link').map((a) => a.textContent)).toEqual([expect.stringContaining('Cy Failed')]));
    expect(memberCalls(api)).toContain('/api/gym/users?page=0&pageSize=10&access=failed');

    await user.selectOptions(screen.getByLabelText('Door access'), 'Closed (confirmed)');
    await waitFor(() => expect(within(table).getAllByRole('link').map((a) => a.textContent)).toEqual([expect.stringContaining('Ben Lapsed')]));
    await user.selectOptions(screen.getByLabelText('Door access'), 'Any');
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('opens with the filter of its address, says when none match, and ignores a state it does not know', async () => {
    const { api } = setup('/shell/gymowner/users?access=waiting');
    expect(await screen.findByText('No members match')).toBeInTheDocument();
    expect(screen.getByText('No member here is “Waiting for Kisi”.')).toBeInTheDocument();
    expect(screen.getByLabelText('Door access')).toHaveValue('waiting');
    expect(memberCalls(api)).toEqual(['/api/gym/users?page=0&pageSize=10&access=waiting']);
  });

  it('says, when no member is confirmed open, when Kisi confirms a member’s doors', async () => {
    const gym = desk();
    gym.members = gym.members.filter((m) => m.id !== 1);
    setup('/shell/gymowner/users?access=open', gym);
    expect(await screen.findByText('No member here is “Open (confirmed)”. Kisi confirms a member’s doors when their membership switches them, or when their page checks Kisi.')).toBeInTheDocument();
  });

  it('an unknown door state in the address falls back to any', async () => {
    const { api } = setup('/shell/gymowner/users?access=ajar');
    await screen.findByRole('table', { name: 'Members' });
    expect(screen.getByLabelText('Door access')).toHaveValue('');
    expect(memberCalls(api)).toEqual(['/api/gym/users?page=0&pageSize=10']);
  });
});
