import type { Page } from '@contracts/common.contract';
import { EXAMPLE_PIECE_NUMBER, PIECE_SORTS, type Category, type PieceSort, type PieceSummary } from '@contracts/catalogue.contract';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/lib/app-link';
import { useRead, type Loaded } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { paths } from '@/lib/paths';
import { formatCount } from '@/lib/format';
import { categoriesRead, piecesRead, type PiecesSearch } from '@pages/catalogue.reads';
import { SORT_LABELS, categoryTree, foundMatching, foundPlural, piecesHref, plural, type CatalogueLinkState, type Elsewhere } from '../catalogue.api';
import { CatalogueImage } from './catalogue-image';
import { CatalogueResults, CategoryLoadError, FilterSelect } from './catalogue-results';

const categoriesQuery = queryOf(categoriesRead);

/** "12 pieces match “house” in Town", said politely when it changes. */
function resultSummary(found: Page<unknown>, search: PiecesSearch, categoryName: string | undefined): string {
  const where = search.category ? ` in ${categoryName ?? `category ${search.category}`}` : '';
  if (search.query) return `${foundMatching(found, 'piece', 'pieces')} “${search.query}”${where}`;
  return `${foundPlural(found, 'piece', 'pieces')}${where}`;
}

function PieceCard({ piece, state }: { piece: PieceSummary; state: CatalogueLinkState }) {
  const meta = [piece.year === null ? null : String(piece.year), piece.category?.name ?? 'No category', plural(piece.partCount, 'part', 'parts')].filter(Boolean);
  return (
    <li className="cat-card">
      <CatalogueImage src={piece.imageUrl} size="card" />
      <div className="cat-card-body">
        <AppLink to={paths.piece(piece.number)} state={state} className="cat-card-link">
          <span className="cat-number">{piece.number}</span> <span className="cat-card-name">{piece.name}</span>
        </AppLink>
        <p className="cat-card-meta">{meta.join(' · ')}</p>
      </div>
    </li>
  );
}

/** The pieces tab of `/pieces`: the search, the category (theme) filter and sort, and the grid of pieces. */
export function PieceResults(props: { search: PiecesSearch; loaded: { pieces: Loaded<Page<PieceSummary>>; categories: Loaded<{ items: Category[] }> }; busy: boolean; state: CatalogueLinkState; elsewhere?: Elsewhere }) {
  const { search, loaded, busy, state, elsewhere } = props;
  const list = useRead(queryOf(piecesRead(search)), loaded.pieces.data);
  const pieces = list.data ?? loaded.pieces.data;
  const categoryRead = useRead(categoriesQuery, loaded.categories.data);
  const categories = (categoryRead.data ?? loaded.categories.data)?.items;
  const categoryName = categories?.find((c) => c.id === search.category)?.name;
  const filtered = Boolean(search.query || search.category);

  return (
    <CatalogueResults
      searchLabel="Search pieces"
      placeholder={`Number (${EXAMPLE_PIECE_NUMBER}) or name`}
      query={search.query}
      busy={busy}
      filters={
        <>
          <FilterSelect label="Category" param="category" value={search.category ? String(search.category) : ''}>
            <option value="">All categories</option>
            {search.category && categoryName === undefined ? <option value={search.category}>Category {search.category}</option> : null}
            {categoryTree(categories ?? []).map((category) => (
              <option key={category.id} value={category.id}>
                {`${'\u00a0\u00a0\u00a0'.repeat(category.depth)}${category.depth ? '– ' : ''}${category.name} (${formatCount(category.total)})`}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect label="Sort by" param="sort" value={search.sort} defaultValue="relevance">
            {PIECE_SORTS.map((sort: PieceSort) => (
              <option key={sort} value={sort}>
                {SORT_LABELS[sort]}
              </option>
            ))}
          </FilterSelect>
        </>
      }
      categoryFailure={categories === undefined ? <CategoryLoadError error={categoryRead.error ?? loaded.categories.error} read={categoryRead} /> : null}
      failure={list.error ?? (pieces === undefined ? loaded.pieces.error : undefined)}
      read={list}
      shown={pieces !== undefined}
      what="pieces"
      clearTo={piecesHref({ sort: search.sort })}
      filtered={filtered}
      summary={pieces ? resultSummary(pieces, search, categoryName) : ''}
    >
      {pieces ? (
        <PagedList
          page={search.page}
          pageSize={pieces.pageSize}
          total={pieces.total}
          totalIsLowerBound={pieces.totalIsLowerBound}
          count={pieces.items.length}
          hrefFor={(page) => piecesHref({ ...search, page })}
          label="Piece pages"
          noun="pieces"
          empty={
            filtered ? (
              <NoMatchState
                title="No pieces match"
                clearTo={piecesHref({ sort: search.sort })}
                clearLabel={search.query && search.category ? 'Clear the search and filter' : search.query ? 'Clear the search' : 'Show every category'}
                elsewhere={search.query && elsewhere ? { to: elsewhere.to, label: `Show ${foundPlural(elsewhere.found, 'part', 'parts')}` } : undefined}
              >
                {search.query
                  ? `Nothing matches “${search.query}”${search.category ? ` in ${categoryName ?? 'this category'}` : ''}${elsewhere ? ` here, but ${foundMatching(elsewhere.found, 'part', 'parts')} it.` : `. Try a set number such as ${EXAMPLE_PIECE_NUMBER}, or a word of its name.`}`
                  : `There are no pieces in ${categoryName ?? 'this category'}.`}
              </NoMatchState>
            ) : (
              <EmptyState icon="search" title="The catalogue is empty">
                No pieces have been imported yet.
              </EmptyState>
            )
          }
        >
          <ul className="cat-grid" aria-label="Pieces" aria-busy={busy}>
            {pieces.items.map((piece) => (
              <PieceCard key={piece.id} piece={piece} state={state} />
            ))}
          </ul>
        </PagedList>
      ) : null}
    </CatalogueResults>
  );
}
