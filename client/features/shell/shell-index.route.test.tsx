import { screen, within } from '@testing-library/react';
import { gymApi } from '@contracts/gym.contract';
import { handle } from '@/test-support/test-server';
import { fakeBff, renderApp, signedInAs } from '@/test-support/test-utils';

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
    // Sound and notifications are everyone's who works here: a runner at the board wants them too.
    const notify = screen.getByRole('heading', { name: 'Sound and notifications' }).closest('section')!;
    expect(within(notify).getByRole('switch', { name: 'Play a sound' })).not.toBeChecked();
  });
});

describe('/shell home: the role’s work', () => {
  const workOf = async () => {
    const section = (await screen.findByRole('heading', { name: 'Your work' })).closest('section')!;
    return within(section)
      .getAllByRole('link')
      .map((link) => link.querySelector('.card-title')!.textContent);
  };

  it('offers staff the desk’s work, members first, and folds the demos away', async () => {
    fakeBff([signedInAs({ role: 'staff', name: 'Sam Staff' })], { signedIn: true });
    renderApp('/shell');
    expect(await workOf()).toEqual(['Members', 'Door events', 'Gym owners', 'Runner board', 'Kitchen screens', 'Food court', 'Food court figures', 'Chat', 'Guest help', 'Files', 'Catalogue']);
    const demos = screen.getByText('Samples and demos').closest('details')!;
    expect(demos).not.toHaveAttribute('open');
    expect(within(demos).getByRole('link', { name: /Live stream/ })).toHaveAttribute('href', '/shell/sse');
  });

  it('offers a runner only what a runner may open: no door events, no desk pages', async () => {
    fakeBff([signedInAs({ id: 9, email: 'rita@frontdesk.test', name: 'Rita Runner', role: 'runner' })], { signedIn: true });
    renderApp('/shell');
    expect(await workOf()).toEqual(['Runner board', 'Kitchen screens', 'Food court', 'Chat', 'Catalogue']);
    const demos = screen.getByText('Samples and demos').closest('details')!;
    expect(within(demos).queryByRole('link', { name: /Posts|Upload one file/ })).not.toBeInTheDocument();
  });
});
