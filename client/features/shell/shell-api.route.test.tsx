import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { statusApi } from '@contracts/status.contract';
import { handle, passOn, problem } from '@/test-support/test-server';
import { fakeBff, renderApp } from '@/test-support/test-utils';

afterEach(() => jest.restoreAllMocks());

describe('/shell/api', () => {
  it('shows the service status from GET /api', async () => {
    fakeBff([], { signedIn: true });
    renderApp('/shell/api');
    const card = (await screen.findByRole('heading', { name: 'Service status', level: 1 })).closest('section')!;
    expect(await within(card).findByText('Operational')).toBeInTheDocument();
    expect(card).toHaveTextContent('Frontdesk 0.1.0');
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says inside the shell that the service did not answer, its tabs kept, and shows it once a check gets through', async () => {
    let down = true;
    fakeBff([handle(statusApi.status, () => (down ? problem(500, 'Internal Server Error', 'The service is down.') : passOn))], { signedIn: true });
    renderApp('/shell/api');
    const card = (await screen.findByRole('heading', { name: 'Service status', level: 1 })).closest('section')!;
    expect(await within(card).findByRole('alert')).toHaveTextContent('The service did not answer: The service is down.');
    expect(within(screen.getByRole('navigation', { name: 'Staff shell' })).getByRole('link', { name: /Overview/ })).toBeInTheDocument();

    down = false;
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Check now' }));
    expect(await within(card).findByText('Operational')).toBeInTheDocument();
    expect(within(card).queryByRole('alert')).not.toBeInTheDocument();
  });
});
