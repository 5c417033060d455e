import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { fakeCatalogue, ourPicture, part, piece, type FakeCatalogue } from '@/test-support/catalogue.fake-api';

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

function setup(path: string, catalogue: FakeCatalogue = fakeCatalogue()) {
  const api = fakeBff(catalogue.handlers);
  const view = renderApp(path);
  return { ...view, api, catalogue, user: userEvent.setup() };
}

const pieceCalls = (api: ReturnType<typeof fakeBff>) => api.calls.filter((c) => c.path.startsWith('/api/rest/pieces?')).map((c) => c.path);
const cards = () => within(screen.getByRole('list', { name: 'Pieces' })).getAllByRole('link').map((a) => a.textContent);
const status = () => screen.getAllByRole('status').find((el) => el.classList.contains('cat-count'))!;

/** 30 sets in Star Wars, numbered so their order is known. */
const many = () =>
  fakeCatalogue({ pieces: Array.from({ length: 30 }, (_, i) => piece(i + 1, { number: `${7000 + i + 1}-1`, name: `Starship ${String(i + 1).padStart(2, '0')}`, category: { id: 3, name: 'Star Wars' } })) });

describe('/pieces', () => {
  it('lists the pieces as cards, each a link to its page, with the number of results', async () => {
    setup('/pieces');
    const bookshop = await screen.findByRole('link', { name: '10270-1 Bookshop' });
    expect(bookshop).toHaveAttribute('href', '/pieces/10270-1');
    expect(bookshop.closest('li')).toHaveTextContent('2020 · Modular Buildings · 2,504 parts');
    // Its picture comes from the BFF, never from Rebrickable's CDN.
    const frame = bookshop.closest('li')!.querySelector('.cat-image-card')!;
    const picture = frame.querySelector('img')!;
    expect(picture).toHaveAttribute('src', ourPicture('https://cdn.rebrickable.com/media/sets/10270-1.jpg'));
    // A picture that does not load (offline, a dead address: the BFF answers an error) leaves a placeholder in the same frame, not a broken image.
    fireEvent.error(picture);
    const failed = bookshop.closest('li')!.querySelector('.cat-image-card')!;
    expect(failed.querySelector('img')).toBeNull();
    expect(failed).toHaveTextContent('No picture');
    // A piece without a picture has the same placeholder, so every card is the same shape.
    const withoutPicture = screen.getByRole('link', { name: '75192-1 Millennium Falcon' }).closest('li')!;
    expect(withoutPicture.querySelector('.cat-image-card')).toHaveTextContent('No picture');
    expect(withoutPicture.querySelector('img')).toBeNull();
    expect(status()).toHaveTextContent('6 pieces');
    expect(screen.getByRole('heading', { name: 'Pieces', level: 1 })).toBeInTheDocument();
  });

  it('calls the API with the 0-based page, query, category and sort of the URL, and pages through', async () => {
    const { api, user, router } = setup('/pieces?page=2&query=starship&category=3&sort=name', many());
    expect(await screen.findByRole('link', { name: '7025-1 Starship 25' })).toBeInTheDocument();
    expect(pieceCalls(api)).toEqual(['/api/rest/pieces?page=1&pageSize=24&query=starship&category=3&sort=name']);
    expect(cards()).toHaveLength(6);
    expect(screen.getByRole('searchbox', { name: 'Search pieces' })).toHaveValue('starship');
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('3');
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('name');
    expect(status()).toHaveTextContent('30 pieces match “starship” in Star Wars');
    expect(screen.getByText('Showing 25–30 of 30 pieces')).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Previous' }));
    await waitFor(() => expect(router.state.location.search).toBe('?query=starship&category=3&sort=name'));
    expect(await screen.findByRole('link', { name: '7001-1 Starship 01' })).toBeInTheDocument();
    expect(pieceCalls(api).at(-1)).toBe('/api/rest/pieces?page=0&pageSize=24&query=starship&category=3&sort=name');
  });

  it('falls back to page 1, every category and the best match for params it cannot read', async () => {
    const { api } = setup('/pieces?page=abc&category=-4&sort=cheapest');
    await screen.findByRole('link', { name: '10270-1 Bookshop' });
    expect(pieceCalls(api)).toEqual(['/api/rest/pieces?page=0&pageSize=24&sort=relevance']);
    expect(screen.getByRole('combobox', { name: 'Sort by' })).toHaveValue('relevance');
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('');
  });

  it('searches as the user types: the query goes into the URL and the results follow, the exact number first', async () => {
    const { user, router, api } = setup('/pieces');
    await screen.findByRole('link', { name: '10270-1 Bookshop' });
    await user.type(screen.getByRole('searchbox', { name: 'Search pieces' }), '10270');
    await waitFor(() => expect(router.state.location.search).toBe('?query=10270'));
    await waitFor(() => expect(cards()).toEqual(['10270 Bookshop Minifigure Pack', '10270-1 Bookshop']));
    expect(status()).toHaveTextContent('2 pieces match “10270”');
    // Debounced: one call for the whole word, not one per key.
    expect(pieceCalls(api)).toEqual(['/api/rest/pieces?page=0&pageSize=24&sort=relevance', '/api/rest/pieces?page=0&pageSize=24&query=10270&sort=relevance']);
  });

  it('filters by a category, its sub-categories under it and included, and sorts', async () => {
    const { user, router } = setup('/pieces');
    await screen.findByRole('link', { name: '10270-1 Bookshop' });
    const category = screen.getByRole('combobox', { name: 'Category' });
    expect(within(category).getAllByRole('option').map((o) => o.textContent?.replace(/\u00a0/g, '_'))).toEqual([
      'All categories',
      'Star Wars (1)',
      'Technic (1)',
      'Town (4)',
      '___– Modular Buildings (3)',
    ]);
    await user.selectOptions(category, 'Town (4)');
    await waitFor(() => expect(router.state.location.search).toBe('?category=1'));
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(cards()).toContain('6372-1 Town House');
    expect(cards()).toContain('10270-1 Bookshop');
    expect(status()).toHaveTextContent('4 pieces in Town');

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'Oldest first');
    await waitFor(() => expect(router.state.location.search).toBe('?category=1&sort=year'));
    await waitFor(() => expect(cards()[0]).toBe('6372-1 Town House'));
  });

  it('says when nothing matches and clears the search', async () => {
    const { user, router } = setup('/pieces?query=zzz&sort=name');
    expect(await screen.findByRole('heading', { name: 'No pieces match' })).toBeInTheDocument();
    expect(screen.getByText(/Nothing matches “zzz”/)).toBeInTheDocument();
    expect(status()).toHaveTextContent('0 pieces match “zzz”');
    await user.click(screen.getByRole('link', { name: 'Clear the search' }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name'));
    expect(await screen.findByRole('link', { name: '10270-1 Bookshop' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('searchbox', { name: 'Search pieces' })).toHaveValue(''));
  });

  it('shows a refused search (an unknown category, 400) inside the page, with a retry and a way out', async () => {
    const { user, api, router } = setup('/pieces?category=99');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the pieces: There is no category 99.');
    expect(screen.queryByRole('list', { name: 'Pieces' })).not.toBeInTheDocument();
    // The search box and the filters are still there to change the search.
    expect(screen.getByRole('searchbox', { name: 'Search pieces' })).toBeInTheDocument();
    const before = pieceCalls(api).length;
    await user.click(within(alert).getByRole('button', { name: /Try again/ }));
    await waitFor(() => expect(pieceCalls(api).length).toBe(before + 1));
    await user.click(within(screen.getByRole('alert')).getByRole('link', { name: 'Clear the search and filter' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(await screen.findByRole('link', { name: '10270-1 Bookshop' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a server failure (500) after its retries inside the page, and Try again brings the pieces', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const catalogue = fakeCatalogue();
    catalogue.down = true;
    const { api } = setup('/pieces', catalogue);
    // The loader tries 4 times (1 s, 2 s, 4 s apart) before it gives up.
    for (const ms of [1000, 2000, 4000]) await act(() => jest.advanceTimersByTimeAsync(ms));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the pieces: The catalogue is unavailable.');
    expect(pieceCalls(api).length).toBeGreaterThanOrEqual(4);
    catalogue.down = false;
    await act(async () => within(alert).getByRole('button', { name: /Try again|Trying/ }).click());
    await act(() => jest.advanceTimersByTimeAsync(10_000));
    expect(await screen.findByRole('link', { name: '10270-1 Bookshop' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('preloads a piece when its link is hovered', async () => {
    const { user, api } = setup('/pieces');
    await user.hover(await screen.findByRole('link', { name: '10270-1 Bookshop' }));
    await waitFor(() => expect(api.calls.map((c) => c.path)).toContain('/api/rest/pieces/10270-1'));
  });
});

describe('/pieces?kind=parts', () => {
  const partCards = () => within(screen.getByRole('list', { name: 'Parts' })).getAllByRole('link').map((a) => a.textContent);
  const tabs = () => screen.getByRole('navigation', { name: 'Search the catalogue for' });

  it('finds a part by the number a builder types: the tabs count both kinds, the exact number comes first', async () => {
    const { user, router } = setup('/pieces?query=3001');
    await waitFor(() => expect(status()).toHaveTextContent('0 pieces match “3001”'));
    expect(within(tabs()).getByRole('link', { name: 'Pieces 0' })).toHaveAttribute('aria-current', 'page');
    expect(within(tabs()).getByRole('link', { name: 'Parts 2' })).toHaveAttribute('href', '/pieces?kind=parts&query=3001');
    // The empty pieces tab points to where the number is found, first of its ways out.
    expect(screen.getByText('Nothing matches “3001” here, but 2 parts match it.')).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Show 2 parts' }));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=parts&query=3001'));
    expect(await screen.findByRole('heading', { name: 'Parts', level: 1 })).toBeInTheDocument();
    expect(partCards()).toEqual(['3001 Brick 2 x 4', '3001pr0001 Brick 2 x 4 with Bookshop print']);
    expect(status()).toHaveTextContent('2 parts match “3001”');
    const brick = screen.getByRole('link', { name: '3001 Brick 2 x 4' });
    expect(brick).toHaveAttribute('href', '/parts/3001');
    expect(brick.closest('li')).toHaveTextContent('Bricks · used in 2 pieces');

    // The part goes back to the parts it was found among.
    await user.click(brick);
    expect(await screen.findByRole('heading', { name: 'Brick 2 x 4', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: '← Back to the parts' }));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=parts&query=3001'));
    expect(await screen.findByRole('searchbox', { name: 'Search parts' })).toHaveValue('3001');
  });

  it('lists every part, the most used first, filters by part category and says when nothing matches', async () => {
    const { user, api } = setup('/pieces?kind=parts');
    await waitFor(() => expect(partCards()).toEqual(['3001 Brick 2 x 4', '3023 Plate 1 x 2', '3001pr0001 Brick 2 x 4 with Bookshop print', '3024 Plate 1 x 1']));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Part category' }), 'Plates (2)');
    await waitFor(() => expect(partCards()).toEqual(['3023 Plate 1 x 2', '3024 Plate 1 x 1']));
    expect(api.calls.map((c) => c.path)).toContain('/api/rest/parts?page=0&pageSize=24&category=14&sort=relevance');
    await user.type(screen.getByRole('searchbox', { name: 'Search parts' }), 'brick');
    expect(await screen.findByRole('heading', { name: 'No parts match' })).toBeInTheDocument();
    expect(screen.getByText('Nothing matches “brick” in Plates. Try a part number such as 3001, or a word of its name.')).toBeInTheDocument();
  });

  it('says "1,000+" for a word that matches more than the BFF counts, and pages on past it', async () => {
    const tiles = Array.from({ length: 1_200 }, (_, i) => part(100 + i, { number: `7${String(i).padStart(4, '0')}`, name: `Tile 1 x ${i} with Groove` }));
    const { user, router } = setup('/pieces?kind=parts&query=groove', fakeCatalogue({ parts: tiles }));
    await waitFor(() => expect(status()).toHaveTextContent('1,000+ parts match “groove”'));
    expect(within(tabs()).getByRole('link', { name: 'Parts 1,000+' })).toHaveAttribute('aria-current', 'page');
    const pages = screen.getByRole('navigation', { name: 'Part pages' });
    expect(pages).toHaveTextContent('Showing 1–24 of 1,000+ parts');
    expect(pages).toHaveTextContent('Page 1 of 42+');
    await user.click(within(pages).getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Part pages' })).toHaveTextContent('Page 2 of 42+'));
    // Past the first thousand the count goes on, here to all of them.
    await act(() => router.navigate('/pieces?kind=parts&query=groove&page=42'));
    await waitFor(() => expect(screen.getByRole('navigation', { name: 'Part pages' })).toHaveTextContent('Showing 985–1,008 of 1,200 parts'));
    expect(status()).toHaveTextContent('1,200 parts match “groove”');
  });
});
