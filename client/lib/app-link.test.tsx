import { act, fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppLink, preloadHref, registerPreloadRoutes } from './app-link';
import { resetCache, setQueryData } from './reads';
import { SESSION_KEY } from './session';

afterEach(() => jest.useRealTimers());

function setup() {
  const preload = jest.fn();
  const lazy = jest.fn(async () => ({ Component: () => <p>Target</p>, handle: { preload } }));
  const routes: RouteObject[] = [
    { path: '/', Component: () => <AppLink to="/things/3?page=2">Things</AppLink> },
    { path: '/things/:id', lazy },
  ];
  registerPreloadRoutes(routes);
  render(<RouterProvider router={createMemoryRouter(routes)} />);
  return { preload, lazy, link: screen.getByRole('link', { name: 'Things' }) };
}

describe('AppLink preloads on intent after 50 ms', () => {
  it('loads the target’s code and asks it to preload its data after 50 ms of hover', async () => {
    jest.useFakeTimers();
    const { preload, lazy, link } = setup();
    fireEvent.mouseEnter(link);
    act(() => jest.advanceTimersByTime(49));
    expect(lazy).not.toHaveBeenCalled();
    await act(async () => jest.advanceTimersByTime(1));
    expect(lazy).toHaveBeenCalledTimes(1);
    expect(preload).toHaveBeenCalledTimes(1);
    const [{ params, url }] = preload.mock.calls[0] as [{ params: Record<string, string>; url: URL }];
    expect(params).toEqual({ id: '3' });
    expect(url.searchParams.get('page')).toBe('2');
  });

  it('does nothing when the pointer leaves before 50 ms', async () => {
    jest.useFakeTimers();
    const { lazy, link } = setup();
    fireEvent.mouseEnter(link);
    act(() => jest.advanceTimersByTime(30));
    fireEvent.mouseLeave(link);
    await act(async () => jest.advanceTimersByTime(100));
    expect(lazy).not.toHaveBeenCalled();
  });

  it('preloads on keyboard focus too', async () => {
    jest.useFakeTimers();
    const { lazy, link } = setup();
    fireEvent.focus(link);
    await act(async () => jest.advanceTimersByTime(60));
    expect(lazy).toHaveBeenCalledTimes(1);
  });
});

describe('preloading a page behind a session', () => {
  afterEach(() => resetCache());

  function staffRoute() {
    const preload = jest.fn();
    const lazy = jest.fn(async () => ({ Component: () => null, handle: { preload } }));
    registerPreloadRoutes([{ path: '/shell', children: [{ path: 'empty', lazy }] }]);
    return { preload, lazy };
  }

  it('loads the code but asks for no data while nobody is signed in (it would only answer 401)', async () => {
    setQueryData(SESSION_KEY, null);
    const { preload, lazy } = staffRoute();
    await preloadHref('/shell/empty');
    expect(lazy).toHaveBeenCalledTimes(1);
    expect(preload).not.toHaveBeenCalled();
  });

  it('asks for the data once someone is signed in', async () => {
    setQueryData(SESSION_KEY, { id: 1, email: 'a@b.c', name: 'A', role: 'staff' });
    const { preload } = staffRoute();
    await preloadHref('/shell/empty');
    expect(preload).toHaveBeenCalledTimes(1);
  });
});
