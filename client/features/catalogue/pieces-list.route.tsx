import './catalogue.css';
import { useEffect } from 'react';
import { useLoaderData, useNavigation } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import type { Page } from '@contracts/common.contract';
import { PIECE_SORTS, type Category, type PieceSort, type PieceSummary } from '@contracts/catalogue.contract';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { SearchBox } from '@/components/search-box';
import { AppLink } from '@/lib/app-link';
import { errorMessage, isApiError } from '@/lib/api-client';
import { loadQuery, preloadQuery, useQuery } from '@/lib/cache';
import { paths } from '@/lib/paths';
import { useSetSearchParam } from '@/lib/search-params';
import {
  CATEGORIES_KEY,
  SORT_LABELS,
  attempt,
  categoryTree,
  fetchCategories,
  fetchPiecePage,
  formatCount,
  parsePiecesSearch,
  piecesHref,
  piecesKey,
  plural,
  rememberList,
  type Attempt,
  type CatalogueLinkState,
  type PiecesSearch,
} from './catalogue.api';
import { CatalogueImage } from './components/catalogue-image';

type Data = { search: PiecesSearch; pieces: Attempt<Page<PieceSummary>>; categories: Attempt<{ items: Category[] }> };

/**
 * `/pieces?query&category&sort&page`: the URL page is 1-based, the API's 0-based; bad params fall
 * back silently. A failed search (an unknown category is a 400) shows inside the page, with the
 * search box and filters still there to change it.
 */
export async function loader({ url }: LoaderFunctionArgs): Promise<Data> {
  const search = parsePiecesSearch(url);
  const [pieces, categories] = await Promise.all([
    attempt(() => loadQuery(piecesKey(search), fetchPiecePage)),
    attempt(() => loadQuery(CATEGORIES_KEY, fetchCategories)),
  ]);
  return { search, pieces, categories };
}

export const handle = {
  title: 'Catalogue',
  preload: ({ url }: { url: URL }) => {
    preloadQuery(piecesKey(parsePiecesSearch(url)), fetchPiecePage);
    preloadQuery(CATEGORIES_KEY, fetchCategories);
  },
};

/** "12 pieces match “house” in Town", said politely when it changes. */
function resultSummary(total: number, search: PiecesSearch, categoryName: string | undefined): string {
  const where = search.category ? ` in ${categoryName ?? `category ${search.category}`}` : '';
  if (search.query) return `${plural(total, 'piece', 'pieces')} ${total === 1 ? 'matches' : 'match'} “${search.query}”${where}`;
  return `${plural(total, 'piece', 'pieces')}${where}`;
}

function PieceCard({ piece, state }: { piece: PieceSummary; state: CatalogueLinkState }) {
  const meta = [piece.year === null ? null : String(piece.year), piece.category?.name ?? 'No category', plural(piece.partCount, 'part', 'parts')].filter(Boolean);
  return (
    <li className="cat-card">
      <CatalogueImage src={piece.imageUrl} size="card" />
      <div className="cat-card-body">
        <AppLink to={paths.piece(piece.id)} state={state} className="cat-card-link">
          <span className="cat-number">{piece.number}</span> <span className="cat-card-name">{piece.name}</span>
        </AppLink>
        <p className="cat-card-meta">{meta.join(' · ')}</p>
      </div>
    </li>
  );
}

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { search } = loaded;
  const list = useQuery(piecesKey(search), fetchPiecePage, loaded.pieces.data);
  const pieces = list.data ?? loaded.pieces.data;
  const failure = list.error ?? (pieces === undefined ? loaded.pieces.error : undefined);
  const categoryRead = useQuery(CATEGORIES_KEY, fetchCategories, loaded.categories.data);
  const categories = (categoryRead.data ?? loaded.categories.data)?.items;
  const categoryFailure = categories === undefined ? (categoryRead.error ?? loaded.categories.error) : undefined;
  const choices = categoryTree(categories ?? []);
  const categoryName = categories?.find((c) => c.id === search.category)?.name;

  const setSearchParam = useSetSearchParam();
  const navigation = useNavigation();
  const busy = navigation.state === 'loading' && navigation.location.pathname === paths.pieces;
  const filtered = Boolean(search.query || search.category);
  const here = piecesHref(search);
  const cardState: CatalogueLinkState = { list: here };
  useEffect(() => rememberList(here), [here]);

  return (
    <div className="stack-lg catalogue">
      <PageHeader eyebrow="Catalogue" title="Pieces">
        <p>Every set in the catalogue. Find one by its number (such as 10270-1) or its name, then open it to see the parts it is made of.</p>
      </PageHeader>

      <div className="toolbar">
        <SearchBox value={search.query} onSearch={(query) => setSearchParam('query', query, { replace: true })} label="Search pieces" placeholder="Search by number or name" busy={busy} />
        <div className="toolbar-filters">
          <label className="field-inline">
            <span>Category</span>
            <select value={search.category ? String(search.category) : ''} onChange={(e) => setSearchParam('category', e.target.value)}>
              <option value="">All categories</option>
              {search.category && categoryName === undefined ? <option value={search.category}>Category {search.category}</option> : null}
              {choices.map((category) => (
                <option key={category.id} value={category.id}>
                  {`${'\u00a0\u00a0\u00a0'.repeat(category.depth)}${category.depth ? '– ' : ''}${category.name} (${formatCount(category.total)})`}
                </option>
              ))}
            </select>
          </label>
          <label className="field-inline">
            <span>Sort by</span>
            <select value={search.sort} onChange={(e) => setSearchParam('sort', e.target.value === 'relevance' ? '' : e.target.value)}>
              {PIECE_SORTS.map((sort: PieceSort) => (
                <option key={sort} value={sort}>
                  {SORT_LABELS[sort]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>
      {categoryFailure ? (
        <p className="muted small">
          The category list could not be loaded ({errorMessage(categoryFailure)}).{' '}
          <button type="button" className="link-button" onClick={() => void categoryRead.mutate()} disabled={categoryRead.isValidating}>
            Load it again
          </button>
        </p>
      ) : null}

      {failure ? (
        <LoadError onRetry={() => void list.mutate()} retrying={list.isValidating}>
          {pieces ? 'Could not refresh the pieces: ' : 'Could not load the pieces: '}
          {errorMessage(failure)}
          {!pieces && filtered && isApiError(failure, 400) ? (
            <>
              {' '}
              <AppLink to={piecesHref({ sort: search.sort })}>Clear the search and filter</AppLink>
            </>
          ) : null}
        </LoadError>
      ) : null}

      {/* Announced when it changes: what the search found. */}
      <p className="cat-count" role="status">
        {pieces ? resultSummary(pieces.total, search, categoryName) : ''}
      </p>

      {pieces ? (
        <PagedList
          page={search.page}
          pageSize={pieces.pageSize}
          total={pieces.total}
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
              >
                {search.query
                  ? `Nothing matches “${search.query}”${search.category ? ` in ${categoryName ?? 'this category'}` : ''}. Try a set number such as 10270-1, or a word of its name.`
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
              <PieceCard key={piece.id} piece={piece} state={cardState} />
            ))}
          </ul>
        </PagedList>
      ) : null}
    </div>
  );
}
