import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, createMemoryRouter, useNavigate } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ModalProvider, useModal } from './modal-host';

function Page() {
  const modal = useModal();
  const navigate = useNavigate();
  return (
    <>
      <button type="button" onClick={() => modal.open({ title: 'Studio A', content: (close) => <><p>Sprung floor</p><button type="button">Book</button><input aria-label="Note" /><button type="button" onClick={close}>Done</button></> })}>
        Open details
      </button>
      <button type="button" onClick={() => navigate('/elsewhere')}>Leave</button>
    </>
  );
}

function renderHost() {
  const router = createMemoryRouter([
    {
      path: '/',
      Component: () => (
        <ModalProvider>
          <Outlet />
        </ModalProvider>
      ),
      children: [
        { index: true, Component: Page },
        { path: 'elsewhere', Component: () => <p>Elsewhere</p> },
      ],
    },
  ]);
  render(<RouterProvider router={router} />);
  return userEvent.setup();
}

describe('modal host', () => {
  it('opens a labelled dialog, moves focus into it and locks page scroll', async () => {
    const user = renderHost();
    await user.click(screen.getByText('Open details'));
    // A click before the page has painted its first frame comes before the dialog's code: it opens once that has arrived.
    const dialog = await screen.findByRole('dialog', { name: 'Studio A' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(document.body.style.overflow).toBe('hidden');
  });

  it('closes on Escape, unlocks scroll and gives focus back to the opener', async () => {
    const user = renderHost();
    const opener = screen.getByText('Open details');
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('');
    expect(opener).toHaveFocus();
  });

  it('closes on a click on the backdrop but not on a click inside', async () => {
    const user = renderHost();
    await user.click(screen.getByText('Open details'));
    await user.click(screen.getByText('Sprung floor'));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(document.body.style.overflow).toBe('');
  });

  it('stays open on a click beside it once something was typed in it; Escape still closes it', async () => {
    const user = renderHost();
    await user.click(screen.getByText('Open details'));
    await user.type(await screen.findByRole('textbox', { name: 'Note' }), 'Mats by the door');
    await user.click(screen.getByTestId('modal-backdrop'));
    expect(screen.getByRole('textbox', { name: 'Note' })).toHaveValue('Mats by the door');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Tab inside the dialog', async () => {
    const user = renderHost();
    await user.click(screen.getByText('Open details'));
    const close = screen.getByRole('button', { name: 'Close' });
    const done = screen.getByRole('button', { name: 'Done' });
    expect(close).toHaveFocus();
    await user.tab(); // Book
    await user.tab(); // Note
    await user.tab();
    expect(done).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(done).toHaveFocus();
  });

  it('closes from its content and when the page changes', async () => {
    const user = renderHost();
    await user.click(screen.getByText('Open details'));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByText('Open details'));
    await user.click(screen.getByText('Leave'));
    expect(await screen.findByText('Elsewhere')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
