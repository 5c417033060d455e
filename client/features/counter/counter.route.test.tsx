import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { resetCounter } from './counter-store';

afterEach(() => {
  jest.restoreAllMocks();
  resetCounter();
});

it('keeps the count while the user visits another page and comes back', async () => {
  fakeBff();
  const user = userEvent.setup();
  const { router } = renderApp('/counter');
  const plus = await screen.findByRole('button', { name: 'Increase by 1' });
  await user.click(plus);
  await user.click(plus);
  await user.click(screen.getByRole('radio', { name: '5' }));
  await user.click(screen.getByRole('button', { name: 'Increase by 5' }));
  expect(screen.getByRole('status', { name: 'Current count' })).toHaveTextContent('7');

  await user.click(screen.getAllByRole('link', { name: 'About' })[0]!);
  expect(await screen.findByRole('heading', { name: 'Frontdesk', level: 1 })).toBeInTheDocument();
  await act(() => router.navigate('/counter'));
  expect(await screen.findByRole('status', { name: 'Current count' })).toHaveTextContent('7');

  await user.click(screen.getByRole('button', { name: 'Reset to 0' }));
  expect(screen.getByRole('status', { name: 'Current count' })).toHaveTextContent('0');
});
