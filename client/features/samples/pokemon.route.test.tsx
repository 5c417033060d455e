import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { artwork, fakeSamples, pokemon, type FakeSamples } from '@/test-support/samples.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, samples: FakeSamples = fakeSamples()) {
  const api = fakeBff(samples.handlers);
  const view = renderApp(path);
  return { ...view, api, samples, user: userEvent.setup() };
}

const listCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.path.startsWith('/api/samples/pokemon?')).map((c) => c.path);
const cards = () => within(screen.getByRole('list', { name: 'Pokémon' })).getAllByRole('link').map((a) => a.textContent);

describe('/pokemon', () => {
  it('shows six artwork cards, page 0 in the URL and the call alike', async () => {
    const { api } = setup('/pokemon');
    expect(await screen.findByRole('link', { name: '#001 Bulbasaur' })).toHaveAttribute('href', '/pokemon/bulbasaur');
    expect(listCalls(api)).toEqual(['/api/samples/pokemon?page=0']);
    expect(cards()).toEqual(['#001 Bulbasaur', '#002 Ivysaur', '#003 Venusaur', '#004 Charmander', '#005 Charmeleon', '#006 Charizard']);
    expect(screen.getByRole('link', { name: '#004 Charmander' }).closest('li')!.querySelector('img')).toHaveAttribute('src', artwork(4));
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/pokemon?page=1');
  });

  it('keeps the page 0-based: ?page=1 is the second six, and Previous goes back to page 0', async () => {
    const { api, user, router } = setup('/pokemon?page=1');
    expect(await screen.findByRole('link', { name: '#007 Squirtle' })).toBeInTheDocument();
    expect(listCalls(api)).toEqual(['/api/samples/pokemon?page=1']);
    expect(cards()).toHaveLength(6);
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Next' })).toHaveAttribute('href', '/pokemon?page=2');
    await user.click(screen.getByRole('link', { name: 'Previous' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('link', { name: '#001 Bulbasaur' })).toBeInTheDocument();
    expect(listCalls(api).at(-1)).toBe('/api/samples/pokemon?page=0');
  });

  it.each(['-1', 'x', '1.5'])('treats the page %s as page 0, silently', async (page) => {
    const { api } = setup(`/pokemon?page=${page}`);
    expect(await screen.findByRole('link', { name: '#001 Bulbasaur' })).toBeInTheDocument();
    expect(listCalls(api)).toEqual(['/api/samples/pokemon?page=0']);
  });

  it('says when PokeAPI cannot be reached, with a retry', async () => {
    const samples = fakeSamples();
    samples.down = 502;
    const { user } = setup('/pokemon', samples);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the Pokémon. PokeAPI cannot be reached right now.');
    // The page asks once more as it shows; the button offers the retry when that has failed too.
    const retry = await within(alert).findByRole('button', { name: 'Try again' });
    samples.down = null;
    await user.click(retry);
    expect(await screen.findByRole('link', { name: '#001 Bulbasaur' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows an empty state when there are no Pokémon', async () => {
    setup('/pokemon', fakeSamples({ pokemon: [] }));
    expect(await screen.findByRole('heading', { name: 'No Pokémon' })).toBeInTheDocument();
  });
});

describe('/pokemon/:idOrName', () => {
  it('opens from its card: types as badges, stats as bars with their values, height in m and weight in kg', async () => {
    const { user, router } = setup('/pokemon?page=1', fakeSamples({ pokemon: [...Array.from({ length: 6 }, (_, i) => pokemon(i + 1)), pokemon(7, { types: ['water'], height: 5, weight: 90, stats: [{ name: 'hp', value: 44 }, { name: 'speed', value: 43 }] })] }));
    await user.click(await screen.findByRole('link', { name: '#007 Squirtle' }));
    expect(await screen.findByRole('heading', { name: 'Squirtle', level: 1 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/pokemon/squirtle');
    expect(screen.getByText('#007', { exact: false })).toBeInTheDocument();
    expect(screen.getByText('Type').nextElementSibling).toHaveTextContent('Water');
    expect(screen.getByText('Height').nextElementSibling).toHaveTextContent('0.5 m');
    expect(screen.getByText('Weight').nextElementSibling).toHaveTextContent('9.0 kg');
    const stats = within(screen.getByRole('region', { name: 'Base stats' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(stats).toEqual(['HP44', 'Speed43', 'Total87']);
    expect(screen.getByRole('img', { name: 'Squirtle’s official artwork' })).toHaveAttribute('src', artwork(7));

    // Back to the page it came from.
    expect(screen.getByRole('link', { name: '← All Pokémon' })).toHaveAttribute('href', '/pokemon?page=1');
  });

  it('lists two types as two badges', async () => {
    setup('/pokemon/1');
    expect(await screen.findByRole('heading', { name: 'Bulbasaur', level: 1 })).toBeInTheDocument();
    expect(within(screen.getByText('Types').nextElementSibling as HTMLElement).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Grass', 'Poison']);
    expect(screen.getByText('Height').nextElementSibling).toHaveTextContent('0.7 m');
    expect(screen.getByText('Weight').nextElementSibling).toHaveTextContent('6.9 kg');
    expect(screen.getByRole('link', { name: '← All Pokémon' })).toHaveAttribute('href', '/pokemon');
  });

  it('shows the not-found screen for a Pokémon PokeAPI does not know', async () => {
    setup('/pokemon/missingno');
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });

  it('shows the not-found screen at once, without a call, for a name that cannot be one', async () => {
    const { api } = setup('/pokemon/Not%20a%20name');
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/api/samples'))).toEqual([]);
  });
});
