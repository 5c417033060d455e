import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';

afterEach(() => jest.restoreAllMocks());

it('shows the list with the chosen arco beside it, showing only its id', async () => {
  fakeBff();
  const user = userEvent.setup();
  const { router } = renderApp('/arcos');
  expect(await screen.findByRole('heading', { name: 'Choose an arco' })).toBeInTheDocument();
  const list = screen.getByRole('navigation', { name: 'Arcos' });
  await user.click(within(list).getByRole('link', { name: 'Arco 7' }));
  expect(await screen.findByRole('heading', { name: 'Arco 7' })).toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/arcos/7');
  expect(within(list).getByRole('link', { name: 'Arco 7' })).toHaveAttribute('aria-current', 'page');
});
