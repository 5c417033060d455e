import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeBff, renderApp } from '@/test-support/test-utils';
import { fakeCatalogue, ourPicture, type FakeCatalogue } from '@/test-support/catalogue.fake-api';

afterEach(() => jest.restoreAllMocks());

function setup(path: string, catalogue: FakeCatalogue = fakeCatalogue()) {
  const api = fakeBff(catalogue.handlers);
  const view = renderApp(path);
  return { ...view, api, catalogue, user: userEvent.setup() };
}

const rowsOf = (table: HTMLElement) => within(table).getAllByRole('row').slice(1);
const swatchOf = (row: HTMLElement) => row.querySelector('.cat-swatch') as HTMLElement;

describe('/pieces/:id', () => {
  it("shows the piece's picture and its parts' from the BFF, and a placeholder in the same frame for one that has none or fails", async () => {
    setup('/pieces/1');
    await screen.findByRole('heading', { name: 'Bookshop', level: 1 });
    const large = document.querySelector('.cat-image-large')!;
    expect(large.querySelector('img')).toHaveAttribute('src', ourPicture('https://cdn.rebrickable.com/media/sets/10270-1.jpg'));
    fireEvent.error(large.querySelector('img')!);
    expect(document.querySelector('.cat-image-large')).toHaveTextContent('No picture');

    const brick = screen.getAllByRole('link', { name: '3001 Brick 2 x 4' })[0]!.closest('tr')!;
    expect(brick.querySelector('.cat-image-thumb img')).toHaveAttribute('src', ourPicture('https://cdn.rebrickable.com/media/parts/elements/300121.jpg'));
    // A part without a picture keeps its row's thumbnail frame (an icon, no words), so the rows stay aligned.
    const plate = screen.getAllByRole('link', { name: '3023 Plate 1 x 2' })[0]!.closest('tr')!;
    expect(plate.querySelector('.cat-image-thumb')).not.toBeNull();
    expect(plate.querySelector('.cat-image-thumb img')).toBeNull();
    expect(plate.querySelector('.cat-image-thumb svg')).not.toBeNull();
  });

  it('shows the piece, its totals, and its parts grouped by category with colour swatches and links to each part', async () => {
    const { router } = setup('/pieces/1');
    expect(await screen.findByRole('heading', { name: 'Bookshop', level: 1 })).toBeInTheDocument();
    // An address by id (a link from before) moves to the number people know.
    expect(router.state.location.pathname).toBe('/pieces/10270-1');
    // The header, the facts and the categories count parts and spares alike.
    expect(screen.getByText('16 parts + 1 spare')).toBeInTheDocument();
    const facts = screen.getByRole('region', { name: 'About this piece' });
    expect(within(facts).getByText('10270-1')).toBeInTheDocument();
    expect(within(facts).getByText('2020')).toBeInTheDocument();
    expect(within(facts).getByRole('link', { name: 'Modular Buildings' })).toHaveAttribute('href', '/pieces?category=2');
    expect(facts).toHaveTextContent('Parts16');
    expect(facts).toHaveTextContent('Different parts4');
    expect(facts).toHaveTextContent('Spares1');
    expect(screen.getByText('6 lines (a part in one colour) in 2 categories')).toBeInTheDocument();

    // Categories by name, each a region with its own table.
    const bricks = screen.getByRole('region', { name: 'Bricks 7 parts' });
    const plates = screen.getByRole('region', { name: 'Plates 9 parts + 1 spare' });
    expect(screen.getByRole('navigation', { name: 'Part categories' })).toHaveTextContent('Bricks 7 partsPlates 9 parts + 1 spare');

    const brickTable = within(bricks).getByRole('table', { name: 'Bricks: each part with its colour and quantity' });
    expect(within(brickTable).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Part', 'Colour', 'Quantity', 'Spare']);
    const brickRows = rowsOf(brickTable);
    expect(brickRows.map((row) => within(row).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['3001 Brick 2 x 4', 'Blue', '2', ''],
      ['3001 Brick 2 x 4', 'Red', '4', ''],
      ['3001pr0001 Brick 2 x 4 with Bookshop print', 'Red', '1', ''],
    ]);
    expect(within(brickRows[0]!).getByRole('link', { name: '3001 Brick 2 x 4' })).toHaveAttribute('href', '/parts/3001');
    expect(within(brickRows[2]!).getByRole('link', { name: /3001pr0001/ })).toHaveAttribute('href', '/parts/3001pr0001');
    // The swatch shows the colour; the name is the text, the square is hidden from screen readers.
    expect(swatchOf(brickRows[0]!)).toHaveStyle({ backgroundColor: '#0055BF' });
    expect(swatchOf(brickRows[1]!)).toHaveStyle({ backgroundColor: '#C91A09' });
    expect(swatchOf(brickRows[1]!)).toHaveAttribute('aria-hidden', 'true');

    const plateRows = rowsOf(within(plates).getByRole('table'));
    expect(plateRows.map((row) => within(row).getAllByRole('cell').map((td) => td.textContent))).toEqual([
      ['3023 Plate 1 x 2', 'Black', '6', ''],
      ['3024 Plate 1 x 1', 'Trans-Clear', '3', ''],
      ['3024 Plate 1 x 1', 'Trans-Clear', '1', 'Spare'],
    ]);
    expect(swatchOf(plateRows[1]!)).toHaveClass('is-transparent');
    expect(swatchOf(plateRows[0]!)).not.toHaveClass('is-transparent');
  });

  it('opens a piece by its number, and a part from it', async () => {
    const { api, user, router } = setup('/pieces/10270-1');
    expect(await screen.findByRole('heading', { name: 'Bookshop', level: 1 })).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain('/api/rest/pieces/10270-1');
    await user.click(screen.getAllByRole('link', { name: '3001 Brick 2 x 4' })[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe('/parts/3001'));
    expect(await screen.findByRole('heading', { name: 'Brick 2 x 4', level: 1 })).toBeInTheDocument();
  });

  it('goes back the way the reader came: from a part to its piece, from the piece to the list with its search', async () => {
    const { user, router } = setup('/pieces?query=book&sort=name');
    await user.click(await screen.findByRole('link', { name: '10270-1 Bookshop' }));
    expect(await screen.findByRole('heading', { name: 'Bookshop', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← Back to the pieces' })).toHaveAttribute('href', '/pieces?query=book&sort=name');

    await user.click(screen.getAllByRole('link', { name: '3023 Plate 1 x 2' })[0]!);
    expect(await screen.findByRole('heading', { name: 'Plate 1 x 2', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: '← Back to 10270-1 Bookshop' }));
    expect(await screen.findByRole('heading', { name: 'Bookshop', level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: '← Back to the pieces' }));
    await waitFor(() => expect(router.state.location.search).toBe('?query=book&sort=name'));
    expect(await screen.findByRole('searchbox', { name: 'Search pieces' })).toHaveValue('book');
  });

  it.each(['999', '0', 'no-such-set'])('shows the not-found screen for a piece the catalogue does not have (%s)', async (id) => {
    const { api } = setup(`/pieces/${id}`);
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toContain(`/api/rest/pieces/${id}`);
  });

  it.each(['-1', '_x', 'a%20b'])('shows the not-found screen without asking the API for a malformed id (%s)', async (id) => {
    const { api } = setup(`/pieces/${id}`);
    expect(await screen.findByText('Page not found.')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.path.startsWith('/api/rest/'))).toEqual([]);
  });
});
