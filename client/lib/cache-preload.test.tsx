import { act, render, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { CacheBridge, loadQuery, resetCache, setCacheData, swrConfig, useQuery } from './cache';

afterEach(() => {
  resetCache();
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('a write right after a page mounts', () => {
  it('is not undone by the loader’s preload when the first revalidation comes a frame later', async () => {
    // SWR revalidates a page mounted with data on the next animation frame; make that frame late (on a fake clock).
    jest.useFakeTimers();
    jest.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => setTimeout(() => callback(0), 200) as unknown as number);
    let server = 'access off';
    const fetcher = jest.fn(async () => server);
    const loaded = await loadQuery('/api/thing', fetcher); // the loader
    function Thing() {
      return <p>{useQuery('/api/thing', fetcher, loaded).data}</p>;
    }
    render(
      <SWRConfig value={swrConfig}>
        <CacheBridge />
        <Thing />
      </SWRConfig>,
    );
    expect(screen.getByText('access off')).toBeInTheDocument();

    server = 'access on';
    await act(() => setCacheData('/api/thing', 'access on')); // the answer to a click
    expect(screen.getByText('access on')).toBeInTheDocument();
    await act(() => jest.advanceTimersByTimeAsync(200)); // the late first revalidation runs
    expect(fetcher).toHaveBeenCalledTimes(2);
    expect(screen.getByText('access on')).toBeInTheDocument();
  });
});
