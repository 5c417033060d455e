import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { gymApi } from '@contracts/gym.contract';
import { dayKey, formatCalendarDay } from '@/lib/format';
import { FakeEventSource, fakeBff, fakeEventSourceEachTest, renderApp } from '@/test-support/test-utils';
import { handle, problem } from '@/test-support/test-server';
import { fakeGym, member, owner, type FakeGym } from '@/test-support/gym.fake-api';

/**
 * Pause until a date (issue 52): the member page pauses with an optional day it comes back, shows it
 * in the header ("Paused until Mon 14 Dec · comes back that day") and lets the desk change or clear
 * it; the list says it under the badge; the page follows the server's job when it ends the pause.
 */
fakeEventSourceEachTest();

const marta = owner(1, { name: 'Marta Kowalski', gymName: 'Iron Harbour' });
/** The desk's day `days` from today (YYYY-MM-DD). */
const dayIn = (days: number) => {
  const at = new Date();
  at.setDate(at.getDate() + days);
  return dayKey(at);
};

function setup(path: string, gym: FakeGym, extra: Parameters<typeof fakeBff>[0] = []) {
  const api = fakeBff([...extra, ...gym.handlers], { signedIn: true });
  renderApp(path);
  return { api, gym, user: userEvent.setup() };
}
const patches = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.method === 'PATCH').map((c) => c.body);

describe('/shell/gymowner/users/:id: pause until a date', () => {
  it('pauses until a day: the confirm says when the doors open again, and the header says it once saved', async () => {
    const day = dayIn(10);
    const { api, user } = setup('/shell/gymowner/users/1', fakeGym({ owners: [marta], members: [member(1, marta)] }));
    await screen.findByRole('heading', { name: 'Member 1', level: 1 });
    await user.click(screen.getByRole('radio', { name: /Paused/ }));
    const field = screen.getByLabelText('Comes back on (optional)');
    expect(field).toHaveAttribute('min', dayIn(1));
    expect(screen.getByRole('button', { name: 'Pause membership' })).toBeInTheDocument();

    fireEvent.change(field, { target: { value: day } });
    expect(screen.getByText(`Active → Paused. The doors close to them until ${formatCalendarDay(day)}, when the membership comes back by itself.`)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: `Pause until ${formatCalendarDay(day)}` }));

    await screen.findByText(`Membership paused until ${formatCalendarDay(day)}. No Kisi account uses member1@members.example, so no doors changed.`);
    expect(patches(api)).toEqual([{ membership: 'paused', pausedUntil: day }]);
    expect(screen.getByText(`Paused until ${formatCalendarDay(day)} · comes back that day`)).toBeInTheDocument();
    // Now the day can be changed or cleared.
    expect(screen.getByLabelText('Comes back on')).toHaveValue(day);
    expect(screen.getByRole('button', { name: 'Clear the day' })).toBeInTheDocument();
  });

  it('a day that is not after today is said on the field, and nothing is sent', async () => {
    const { api, user } = setup('/shell/gymowner/users/1', fakeGym({ owners: [marta], members: [member(1, marta)] }));
    await screen.findByRole('heading', { name: 'Member 1', level: 1 });
    await user.click(screen.getByRole('radio', { name: /Paused/ }));
    fireEvent.change(screen.getByLabelText('Comes back on (optional)'), { target: { value: dayIn(0) } });
    await user.click(screen.getByRole('button', { name: `Pause until ${formatCalendarDay(dayIn(0))}` }));
    expect(await screen.findByText('Choose a day after today: the membership comes back on that day')).toBeInTheDocument();
    expect(screen.getByLabelText('Comes back on (optional)')).toHaveAttribute('aria-invalid', 'true');
    expect(patches(api)).toEqual([]);
  });

  it('the server’s refusal of the day (its venue’s today) lands on the field', async () => {
    const refusal = handle(gymApi.updateMember, () => problem(400, 'Bad Request', 'That day cannot end the pause.', [{ path: 'body.pausedUntil', message: 'Choose a day after today: the membership comes back on that day' }]));
    const { user } = setup('/shell/gymowner/users/1', fakeGym({ owners: [marta], members: [member(1, marta)] }), [refusal]);
    await screen.findByRole('heading', { name: 'Member 1', level: 1 });
    await user.click(screen.getByRole('radio', { name: /Paused/ }));
    fireEvent.change(screen.getByLabelText('Comes back on (optional)'), { target: { value: dayIn(1) } });
    await user.click(screen.getByRole('button', { name: `Pause until ${formatCalendarDay(dayIn(1))}` }));
    expect(await screen.findByText('Choose a day after today: the membership comes back on that day')).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: /Paused/ })).toBeChecked();
    expect(screen.queryByText(/Membership paused/)).not.toBeInTheDocument();
  });

  it('a paused member’s day is changed, or cleared to a pause with no end', async () => {
    const gym = fakeGym({ owners: [marta], members: [member(1, marta, { membership: 'paused', pausedUntil: dayIn(5) })] });
    const { api, user } = setup('/shell/gymowner/users/1', gym);
    expect(await screen.findByText(`Paused until ${formatCalendarDay(dayIn(5))} · comes back that day`)).toBeInTheDocument();
    const field = screen.getByLabelText('Comes back on');
    expect(field).toHaveValue(dayIn(5));
    fireEvent.change(field, { target: { value: dayIn(8) } });
    await user.click(screen.getByRole('button', { name: 'Save day' }));
    expect(await screen.findByText(`Paused until ${formatCalendarDay(dayIn(8))} · comes back that day`)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear the day' }));
    await screen.findByText('The pause has no end now: it lasts until the membership is changed.');
    expect(patches(api)).toEqual([{ pausedUntil: dayIn(8) }, { pausedUntil: null }]);
    expect(within(screen.getByRole('heading', { name: 'Member 1', level: 1 }).parentElement!).getByText('Paused')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear the day' })).not.toBeInTheDocument();
  });

  it('follows the server ending the pause on its day (a live member event): the page says Active', async () => {
    const gym = fakeGym({ owners: [marta], members: [member(1, marta, { membership: 'paused', pausedUntil: dayIn(1) })] });
    setup('/shell/gymowner/users/1', gym);
    await screen.findByText(`Paused until ${formatCalendarDay(dayIn(1))} · comes back that day`);
    act(() => FakeEventSource.current().open());
    // The job, at the venue's midnight: the member is active again.
    Object.assign(gym.members[0]!, { membership: 'active', pausedUntil: null });
    act(() => FakeEventSource.current().emit('member', { memberId: 1, membership: 'active' }, '7'));
    await waitFor(() => expect(screen.getByRole('radio', { name: /Active/ })).toBeChecked());
    expect(screen.queryByText(/Paused until/)).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Comes back on')).not.toBeInTheDocument();
  });
});

describe('/shell/gymowner/users: a pause’s day in the membership cell', () => {
  it('says until when under the badge', async () => {
    setup('/shell/gymowner/users', fakeGym({ owners: [marta], members: [member(1, marta, { membership: 'paused', pausedUntil: dayIn(3) }), member(2, marta, { membership: 'paused' })] }));
    const list = await screen.findByRole('table', { name: 'Members' });
    expect(within(list).getAllByText('Paused')).toHaveLength(2);
    expect(within(list).getByText(`until ${formatCalendarDay(dayIn(3))}`)).toBeInTheDocument();
  });
});
