import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { ToastProvider, useToast } from './toast-host';

function Trigger() {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast.show({ tone: 'success', message: 'Saved the owner.' })}>
      Save
    </button>
  );
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

describe('toast host', () => {
  it('shows a toast in a live region and removes it after 5000 ms', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('Save'));
    expect(screen.getByRole('status')).toHaveTextContent('Saved the owner.');
    expect(within(screen.getByRole('status')).getByRole('listitem')).toHaveTextContent('Saved the owner.');
    act(() => jest.advanceTimersByTime(4999));
    expect(screen.getByText('Saved the owner.')).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1));
    expect(screen.queryByText('Saved the owner.')).not.toBeInTheDocument();
  });

  it('gives each toast its own 5 s and can be dismissed early', () => {
    render(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByText('Save'));
    act(() => jest.advanceTimersByTime(3000));
    fireEvent.click(screen.getByText('Save'));
    expect(screen.getAllByText('Saved the owner.')).toHaveLength(2);
    act(() => jest.advanceTimersByTime(2000));
    expect(screen.getAllByText('Saved the owner.')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(screen.queryByText('Saved the owner.')).not.toBeInTheDocument();
  });
});
