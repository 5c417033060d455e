import { screen, within } from '@testing-library/react';
import { gymApi } from '@contracts/gym.contract';
import { handle } from '@/test-server';
import { fakeBff, renderApp, signedInAs } from '@/test-utils';

afterEach(() => jest.restoreAllMocks());

describe('/shell home: today’s visits', () => {
  it('shows staff the count since their local midnight, linking to the door events', async () => {
    const now = new Date(2026, 2, 10, 15, 0);
    jest.spyOn(Date, 'now').mockReturnValue(now.getTime());
    const asked: string[] = [];
    fakeBff(
      [
        signedInAs({ role: 'staff', name: 'Sam Staff' }),
        handle(gymApi.countVisits, ({ query }) => {
          asked.push(query.since);
          return { since: query.since, count: 1234 };
        }),
      ],
      { signedIn: true },
    );
    renderApp('/shell');
    const card = (await screen.findByRole('heading', { name: 'Today’s visits' })).closest('section')!;
    expect(await within(card).findByText((1234).toLocaleString())).toBeInTheDocument();
    expect(asked).toEqual([new Date(2026, 2, 10).toISOString()]);
    expect(within(card).getByRole('link', { name: 'See the door events' })).toHaveAttribute('href', '/shell/webhook');
  });

  it('is not shown to a runner', async () => {
    fakeBff([signedInAs({ id: 9, email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner' })], { signedIn: true });
    renderApp('/shell');
    expect(await screen.findByRole('heading', { name: 'Your account' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Today’s visits' })).not.toBeInTheDocument();
  });
});
