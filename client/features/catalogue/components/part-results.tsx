import type { Page } from '@contracts/common.contract';
import { PART_SORTS, type PartCategory, type PartListItem, type PartSort } from '@contracts/catalogue.contract';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/lib/app-link';
import { useRead, type Loaded } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { formatCount } from '@/lib/format';
import { partCategoriesRead, partsRead, type PartsSearch } from '@pages/catalogue.reads';
import { PART_SORT_LABELS, foundMatching, foundPlural, partHref, partsHref, plural, type CatalogueLinkState, type Elsewhere } from '../catalogue.api';
import { CatalogueImage } from './catalogue-image';
import { CatalogueResults, CategoryLoadError, FilterSelect } from './catalogue-results';

const partCategoriesQuery = queryOf(partCategoriesRead);

/** "3 parts match “3001” in Bricks", said politely when it changes. */
function resultSummary(found: Page<unknown>, search: PartsSearch, categoryName: string | undefined): string {
  const where = search.category ? ` in ${categoryName ?? `part category ${search.category}`}` : '';
  if (search.query) return `${foundMatching(found, 'part', 'parts')} “${search.query}”${where}`;
  return `${foundPlural(found, 'part', 'parts')}${where}`;
}

function PartCard({ part, state }: { part: PartListItem; state: CatalogueLinkState }) {
  const meta = [part.category?.name ?? 'No category', part.pieceCount ? `used in ${plural(part.pieceCount, 'piece', 'pieces')}` : 'in no piece'];
  return (
    <li className="cat-card">
      <CatalogueImage src={part.imageUrl} size="card" />
      <div className="cat-card-body">
        <AppLink to={partHref(part.number)} state={state} className="cat-card-link">
          <span className="cat-number">{part.number}</span> <span className="cat-card-name">{part.name}</span>
        </AppLink>
        <p className="cat-card-meta">{meta.join(' · ')}</p>
      </div>
    </li>
  );
}

/** The parts tab of `/pieces?kind=parts`: the search by number or name, the part category filter and sort, and the grid of parts. */
export function PartResults(props: { search: PartsSearch; loaded: { parts: Loaded<Page<PartListItem>>; categories: Loaded<{ items: PartCategory[] }> }; busy: boolean; state: CatalogueLinkState; elsewhere?: Elsewhere }) {
  const { search, loaded, busy, state, elsewhere } = props;
  const list = useRead(queryOf(partsRead(search)), loaded.parts.data);
  const parts = list.data ?? loaded.parts.data;
  const categoryRead = useRead(partCategoriesQuery, loaded.categories.data);
  const categories = (categoryRead.data ?? loaded.categories.data)?.items;
  const categoryName = categories?.find((c) => c.id === search.category)?.name;
  const filtered = Boolean(search.query || search.category);

  return (
    <CatalogueResults
      searchLabel="Search parts"
      placeholder="Number (3001) or name"
      query={search.query}
      busy={busy}
      filters={
        <>
          <FilterSelect label="Part category" param="category" value={search.category ? String(search.category) : ''}>
            <option value="">All part categories</option>
            {search.category && categoryName === undefined ? <option value={search.category}>Part category {search.category}</option> : null}
            {(categories ?? []).map((category) => (
              <option key={category.id} value={category.id}>
                {`${category.name} (${formatCount(category.partCount)})`}
              </option>
            ))}
          </FilterSelect>
          <FilterSelect label="Sort by" param="sort" value={search.sort} defaultValue="relevance">
            {PART_SORTS.map((sort: PartSort) => (
              <option key={sort} value={sort}>
                {PART_SORT_LABELS[sort]}
              </option>
            ))}
          </FilterSelect>
        </>
      }
      categoryFailure={categories === undefined ? <CategoryLoadError error={categoryRead.error ?? loaded.categories.error} read={categoryRead} /> : null}
      failure={list.error ?? (parts === undefined ? loaded.parts.error : undefined)}
      read={list}
      shown={parts !== undefined}
      what="parts"
      clearTo={partsHref({ sort: search.sort })}
      filtered={filtered}
      summary={parts ? resultSummary(parts, search, categoryName) : ''}
    >
      {parts ? (
        <PagedList
          page={search.page}
          pageSize={parts.pageSize}
          total={parts.total}
          totalIsLowerBound={parts.totalIsLowerBound}
          count={parts.items.length}
          hrefFor={(page) => partsHref({ ...search, page })}
          label="Part pages"
          noun="parts"
          empty={
            filtered ? (
              <NoMatchState
                title="No parts match"
                clearTo={partsHref({ sort: search.sort })}
                clearLabel={search.query && search.category ? 'Clear the search and filter' : search.query ? 'Clear the search' : 'Show every part category'}
                elsewhere={search.query && elsewhere ? { to: elsewhere.to, label: `Show ${foundPlural(elsewhere.found, 'piece', 'pieces')}` } : undefined}
              >
                {search.query
                  ? `Nothing matches “${search.query}”${search.category ? ` in ${categoryName ?? 'this part category'}` : ''}${elsewhere ? ` here, but ${foundMatching(elsewhere.found, 'piece', 'pieces')} it.` : '. Try a part number such as 3001, or a word of its name.'}`
                  : `There are no parts in ${categoryName ?? 'this part category'}.`}
              </NoMatchState>
            ) : (
              <EmptyState icon="search" title="No parts yet">
                No parts have been imported yet.
              </EmptyState>
            )
          }
        >
          <ul className="cat-grid" aria-label="Parts" aria-busy={busy}>
            {parts.items.map((part) => (
              <PartCard key={part.id} part={part} state={state} />
            ))}
          </ul>
        </PagedList>
      ) : null}
    </CatalogueResults>
  );
}
