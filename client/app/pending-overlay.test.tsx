import { act, fireEvent, render, screen } from '@testing-library/react';
import { Link, Outlet, createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { HydrateFallback, RouterPendingOverlay } from './pending-overlay';

const TEXT = 'Loading... Please wait...';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const advance = (ms: number) => act(() => jest.advanceTimersByTime(ms));

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

function slowApp(gate: Promise<void>, initialPath = '/') {
  return createMemoryRouter(
    [
      {
        path: '/',
        HydrateFallback,
        Component: () => (
          <>
            <Link to="/slow">Go slow</Link>
            <Outlet />
            <RouterPendingOverlay />
          </>
        ),
        children: [
          { index: true, Component: () => <p>Home</p> },
          { path: 'slow', loader: () => gate.then(() => 'done'), Component: () => <p>Slow content</p> },
        ],
      },
    ],
    { initialEntries: [initialPath] },
  );
}

describe('pending overlay: after 1000 ms of router work, then at least 500 ms', () => {
  it('stays hidden for a navigation shorter than a second', async () => {
    const gate = deferred();
    render(<RouterProvider router={slowApp(gate.promise)} />);
    fireEvent.click(screen.getByText('Go slow'));
    advance(900);
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
    await act(async () => gate.resolve());
    expect(screen.getByText('Slow content')).toBeInTheDocument();
    advance(2000);
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
  });

  it('appears at 1000 ms and stays 500 ms even when the data arrives just after', async () => {
    const gate = deferred();
    render(<RouterProvider router={slowApp(gate.promise)} />);
    fireEvent.click(screen.getByText('Go slow'));
    advance(999);
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
    advance(2);
    expect(screen.getByRole('status')).toHaveTextContent(TEXT);
    advance(100); // 1101 ms: the data comes in
    await act(async () => gate.resolve());
    expect(screen.getByText('Slow content')).toBeInTheDocument();
    expect(screen.getByText(TEXT)).toBeInTheDocument(); // still up: shown only ~100 ms so far
    advance(350);
    expect(screen.getByText(TEXT)).toBeInTheDocument();
    advance(100);
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
  });

  it('covers a long load for as long as it lasts', async () => {
    const gate = deferred();
    render(<RouterProvider router={slowApp(gate.promise)} />);
    fireEvent.click(screen.getByText('Go slow'));
    advance(4000);
    expect(screen.getByText(TEXT)).toBeInTheDocument();
    expect(screen.getByText('Home')).toBeInTheDocument(); // the old page stays beneath
    await act(async () => gate.resolve());
    advance(1);
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
    expect(screen.getByText('Slow content')).toBeInTheDocument();
  });

  it('is also the first-load fallback, with the same delay', async () => {
    const gate = deferred();
    render(<RouterProvider router={slowApp(gate.promise, '/slow')} />);
    advance(999);
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
    advance(2);
    expect(screen.getByText(TEXT)).toBeInTheDocument();
    await act(async () => gate.resolve());
    advance(600);
    expect(screen.getByText('Slow content')).toBeInTheDocument();
    expect(screen.queryByText(TEXT)).not.toBeInTheDocument();
  });
});
