import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { character, fakeSamples, type FakeSamples } from '@/test-support/samples.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, samples: FakeSamples = fakeSamples()) {
  const api = fakeBff(samples.handlers);
  const view = renderApp(path);
  return { ...view, api, samples, user: userEvent.setup() };
}

const rickCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.path.startsWith('/api/samples/rick')).map((c) => c.path);
const names = () => within(screen.getByRole('list', { name: 'Characters' })).getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const cardOf = (name: string) => screen.getByRole('heading', { name, level: 2 }).closest('li')!;

/** 45 characters: three of Rick and Morty's pages of 20. */
const many = () => fakeSamples({ characters: Array.from({ length: 45 }, (_, i) => character(i + 1, { name: `Citizen ${String(i + 1).padStart(2, '0')}` })) });

describe('/rick', () => {
  it('shows portrait cards with name, status in words and colour, species and last known location', async () => {
    const { api } = setup('/rick');
    expect(await screen.findByRole('heading', { name: 'Rick Sanchez', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Rick and Morty', level: 1 })).toBeInTheDocument();
    expect(rickCalls(api)).toEqual(['/api/samples/rick?page=0']);
    expect(names()).toEqual(['Rick Sanchez', 'Morty Smith', 'Summer Smith', 'Adjudicator Rick', 'Amish Cyborg']);

    const rick = cardOf('Rick Sanchez');
    expect(within(rick).getByText('Alive')).toHaveClass('badge-ok');
    expect(rick).toHaveTextContent('Human');
    expect(rick).toHaveTextContent('Last known locationCitadel of Ricks');
    expect(rick.querySelector('img')).toHaveAttribute('src', '/api/samples/images?src=https%3A%2F%2Frickandmortyapi.com%2Fapi%2Fcharacter%2Favatar%2F1.jpeg');
    expect(within(cardOf('Adjudicator Rick')).getByText('Dead')).toHaveClass('badge-bad');
    // No picture from the API: a placeholder, not a broken image.
    const cyborg = cardOf('Amish Cyborg');
    expect(within(cyborg).getByText('Unknown')).toHaveClass('badge-muted');
    expect(cyborg.querySelector('img')).toBeNull();
    expect(cyborg).toHaveTextContent('No picture');

    expect(screen.getByText('Page 1 of 1')).toBeInTheDocument();
    expect(screen.getByText('5 characters')).toHaveAttribute('role', 'status');
  });

  it('reads the 1-based page of the URL and asks the API for page − 1, with "page n of N" and Previous/Next', async () => {
    const { api, user, router } = setup('/rick?page=2', many());
    expect(await screen.findByRole('heading', { name: 'Citizen 21', level: 2 })).toBeInTheDocument();
    expect(rickCalls(api)).toEqual(['/api/samples/rick?page=1']);
    expect(names()).toHaveLength(20);
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Previous' })).toHaveAttribute('href', '/rick');

    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    expect(await screen.findByRole('heading', { name: 'Citizen 41', level: 2 })).toBeInTheDocument();
    expect(names()).toHaveLength(5);
    expect(screen.getByText('Page 3 of 3')).toBeInTheDocument();
    expect(rickCalls(api).at(-1)).toBe('/api/samples/rick?page=2');
  });

  it.each(['0', '-1', 'abc', '2.5'])('treats the page %s as page 1, silently', async (page) => {
    const { api } = setup(`/rick?page=${page}`, many());
    expect(await screen.findByRole('heading', { name: 'Citizen 01', level: 2 })).toBeInTheDocument();
    expect(rickCalls(api)).toEqual(['/api/samples/rick?page=0']);
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('filters by name as the user types and by status, both kept in the URL and sent to the API', async () => {
    const { api, user, router } = setup('/rick');
    await screen.findByRole('heading', { name: 'Rick Sanchez', level: 2 });
    await user.type(screen.getByRole('searchbox', { name: 'Search characters by name' }), 'rick');
    await waitFor(() => expect(router.state.location.search).toBe('?name=rick'));
    await waitFor(() => expect(names()).toEqual(['Rick Sanchez', 'Adjudicator Rick']));
    expect(screen.getByText('2 characters match “rick”')).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'Dead');
    await waitFor(() => expect(router.state.location.search).toBe('?name=rick&status=dead'));
    await waitFor(() => expect(names()).toEqual(['Adjudicator Rick']));
    expect(rickCalls(api).at(-1)).toBe('/api/samples/rick?page=0&name=rick&status=dead');
    // Debounced: one call for the whole word, not one per key.
    expect(rickCalls(api)).toEqual(['/api/samples/rick?page=0', '/api/samples/rick?page=0&name=rick', '/api/samples/rick?page=0&name=rick&status=dead']);
  });

  it('opens with the filters of the URL in the form (a bad status is ignored)', async () => {
    const { api } = setup('/rick?name=smith&status=zombie');
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search characters by name' })).toHaveValue('smith'));
    expect(await screen.findByRole('heading', { name: 'Morty Smith', level: 2 })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('');
    expect(rickCalls(api)).toEqual(['/api/samples/rick?page=0&name=smith']);
  });

  it('says when nothing matches and clears the search and status', async () => {
    const { user, router } = setup('/rick?name=zzz&status=alive');
    expect(await screen.findByRole('heading', { name: 'No characters match' })).toBeInTheDocument();
    expect(screen.getByText(/No one called “zzz” is alive/)).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Clear the search and status' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('heading', { name: 'Rick Sanchez', level: 2 })).toBeInTheDocument();
  });

  it('says plainly when the service cannot be reached (502), and Try again brings the characters', async () => {
    const samples = fakeSamples();
    samples.down = 502;
    const { api, user } = setup('/rick', samples);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the characters. The Rick and Morty API cannot be reached right now.');
    expect(screen.queryByRole('list', { name: 'Characters' })).not.toBeInTheDocument();

    // The page asks once more as it shows; the button offers the retry when that has failed too.
    const retry = await within(alert).findByRole('button', { name: 'Try again' });
    samples.down = null;
    const before = rickCalls(api).length;
    await user.click(retry);
    expect(await screen.findByRole('heading', { name: 'Rick Sanchez', level: 2 })).toBeInTheDocument();
    expect(rickCalls(api).length).toBeGreaterThan(before);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says when the service did not answer in time (504)', async () => {
    const samples = fakeSamples();
    samples.down = 504;
    setup('/rick', samples);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the characters. The Rick and Morty API did not answer in time.');
  });

  it('shows the BFF’s stale copy with a notice of its age', async () => {
    const samples = fakeSamples();
    samples.stale = 3 * 3600 + 120;
    setup('/rick', samples);
    expect(await screen.findByRole('heading', { name: 'Rick Sanchez', level: 2 })).toBeInTheDocument();
    expect(screen.getByText(/Showing a copy from/)).toHaveTextContent('Showing a copy from 3 hours ago — the Rick and Morty API cannot be reached right now.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows no notice for a fresh answer', async () => {
    setup('/rick');
    await screen.findByRole('heading', { name: 'Rick Sanchez', level: 2 });
    expect(screen.queryByText(/Showing a copy from/)).not.toBeInTheDocument();
  });
});
