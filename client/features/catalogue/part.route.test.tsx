import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { COLOURS, PARTS, fakeCatalogue, piece, type FakeCatalogue, type FakeLine } from '@/test-support/catalogue.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, catalogue: FakeCatalogue = fakeCatalogue()) {
  const api = fakeBff(catalogue.handlers);
  const view = renderApp(path);
  return { ...view, api, catalogue, user: userEvent.setup() };
}

const usedInTable = () => screen.getByRole('table', { name: /^Pieces that use/ });
const rows = () => within(usedInTable()).getAllByRole('row').slice(1);

/** The 2 x 4 brick in 25 sets: 2 of them in set n, plus a spare in the odd ones. */
const popular = () => {
  const pieces = Array.from({ length: 25 }, (_, i) => piece(i + 1, { number: `${6000 + i + 1}-1`, name: `Set ${String(i + 1).padStart(2, '0')}`, year: 1990 + i }));
  const lines: FakeLine[] = pieces.flatMap((p) => [
    { pieceId: p.id, partId: 1, colourId: COLOURS.red.id, quantity: 2, spare: false },
    ...(p.id % 2 ? [{ pieceId: p.id, partId: 1, colourId: COLOURS.red.id, quantity: 1, spare: true }] : []),
  ]);
  return fakeCatalogue({ pieces, parts: PARTS, lines });
};

describe('/parts/:id', () => {
  it('opens a part by the number people type, even digits only', async () => {
    const { api } = setup('/parts/3024');
    expect(await screen.findByRole('heading', { name: 'Plate 1 x 1', level: 1 })).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/rest/parts/3024?page=0&pageSize=20');
  });

  it('shows the part, the colours it comes in, and the pieces it is used in with links to them by number', async () => {
    const { api } = setup('/parts/3001');
    expect(await screen.findByRole('heading', { name: 'Brick 2 x 4', level: 1 })).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/rest/parts/3001?page=0&pageSize=20');
    const facts = screen.getByRole('region', { name: 'About this part' });
    expect(facts).toHaveTextContent('Number3001');
    expect(facts).toHaveTextContent('CategoryBricks');
    expect(facts).toHaveTextContent('MaterialPlastic');

    const colours = screen.getByRole('region', { name: 'Comes in 3 colours' });
    const items = within(colours).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Black', 'Blue', 'Red']);
    expect(items[2]!.querySelector('.cat-swatch')).toHaveStyle({ backgroundColor: '#C91A09' });

    expect(screen.getByRole('heading', { name: 'Used in 2 pieces', level: 2 })).toBeInTheDocument();
    expect(within(usedInTable()).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Piece', 'Year', 'Quantity', 'Spares', 'Colours']);
    expect(rows().map((row) => within(row).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['10270-1 Bookshop', '2020', '6', '0', '2'],
      ['75192-1 Millennium Falcon', '2017', '12', '1', '1'],
    ]);
    expect(within(rows()[1]!).getByRole('link', { name: '75192-1 Millennium Falcon' })).toHaveAttribute('href', '/pieces/75192-1');
  });

  it('moves an address by id (a link from before) to the number, keeping the page', async () => {
    const { router } = setup('/parts/1?page=2', popular());
    expect(await screen.findByRole('heading', { name: 'Used in 25 pieces', level: 2 })).toBeInTheDocument();
    expect(router.state.location.pathname + router.state.location.search).toBe('/parts/3001?page=2');
    expect(rows()).toHaveLength(5);
  });

  it('opens a piece it is used in, and that piece goes back to the part', async () => {
    const { user, router } = setup('/parts/3001');
    await user.click(await screen.findByRole('link', { name: '10270-1 Bookshop' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/pieces/10270-1'));
    expect(await screen.findByRole('heading', { name: 'Bookshop', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: '← Back to part 3001 Brick 2 x 4' }));
    expect(await screen.findByRole('heading', { name: 'Brick 2 x 4', level: 1 })).toBeInTheDocument();
  });

  it('pages through the pieces it is used in: 1-based in the URL, 0-based in the call', async () => {
    const { user, router, api } = setup('/parts/3001', popular());
    expect(await screen.findByRole('heading', { name: 'Used in 25 pieces', level: 2 })).toBeInTheDocument();
    expect(rows()).toHaveLength(20);
    expect(screen.getByText('Showing 1–20 of 25 pieces')).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(api.calls.map((c) => c.path)).toContain('/api/rest/parts/3001?page=1&pageSize=20');
    expect(rows()[0]).toHaveTextContent('6021-1 Set 21');
    expect(within(rows()[0]!).getAllByRole('cell').map((td) => td.textContent)).toEqual(['6021-1 Set 21', '2010', '2', '1', '1']);
    expect(screen.getByText('Showing 21–25 of 25 pieces')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Brick 2 x 4', level: 1 })).toBeInTheDocument();
  });

  it('opens a part by its number, and falls back to page 1 for a page it cannot read', async () => {
    const { api } = setup('/parts/3001pr0001?page=x');
    expect(await screen.findByRole('heading', { name: 'Brick 2 x 4 with Bookshop print', level: 1 })).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/rest/parts/3001pr0001?page=0&pageSize=20');
    expect(screen.getByRole('region', { name: 'About this part' })).toHaveTextContent('MaterialNot known');
  });

  it('says when a part is past the last page of its pieces', async () => {
    setup('/parts/3001?page=5');
    expect(await screen.findByRole('heading', { name: 'This page is past the end' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to page 1' })).toHaveAttribute('href', '/parts/3001');
  });

  it.each(['999', '3001x', '0'])('shows the not-found screen for a part the catalogue does not have (%s)', async (id) => {
    setup(`/parts/${id}`);
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
  });
});
