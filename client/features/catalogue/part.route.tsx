import './catalogue.css';
import { redirect, useLoaderData, useLocation, useParams } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { parseWhereUsedSearch, partRead, partReads } from '@pages/catalogue.reads';
import { EmptyState } from '@/components/empty-state';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/lib/app-link';
import { formatCount } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { ColourSwatch } from './components/colour-swatch';
import { CatalogueHeader } from './components/catalogue-header';
import { CatalogueImage } from './components/catalogue-image';
import { backFrom, linkState, partHref, plural } from './catalogue.api';

const reads = routeReads(partReads);

/**
 * `/parts/:number?page`: a part by its number (3001, 3001pr0001), the colours it comes in and the
 * pieces it is used in, a page at a time (1-based in the URL, bad → 1); an address by id (links
 * from before) moves to the number; anything the API cannot look up → not found.
 */
export async function loader(args: LoaderFunctionArgs) {
  const loaded = await reads.loader(args);
  if (loaded.part.number !== args.params.id) throw redirect(partHref(loaded.part.number, parseWhereUsedSearch(new URL(args.request.url).searchParams).page));
  return loaded;
}

export const handle = { title: 'Part', ...reads.handle };

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { id = '' } = useParams();
  const { page } = useSearch(parseWhereUsedSearch);
  // The hook rather than `reads.useReads()`: the header says when a refresh fails, with a retry.
  const { data: part, error, isValidating, mutate } = useRead(queryOf(partRead(id, page)), loaded.part);
  const { usedIn } = part;
  const location = useLocation();
  const back = backFrom(location.state);
  // A piece opened from here comes back here.
  const state = linkState(location.state, { href: partHref(part.number, page), label: `part ${part.number} ${part.name}` });

  return (
    <div className="stack-lg catalogue">
      <CatalogueHeader
        back={back}
        eyebrow={part.category?.name ?? 'Part'}
        title={part.name}
        what="part"
        refresh={{ error, retrying: isValidating, retry: () => void mutate() }}
        facts={
          <>
            <span className="cat-number">{part.number}</span>
            {part.material ? <span>{part.material}</span> : null}
            <span>{plural(part.colours.length, 'colour', 'colours')}</span>
          </>
        }
      />

      <div className="cat-overview">
        <CatalogueImage src={part.imageUrl} size="large" />
        <div className="stack-lg">
          <section className="card" aria-labelledby="part-facts">
            <h2 id="part-facts" className="card-heading">
              About this part
            </h2>
            <dl className="cat-facts">
              <div>
                <dt>Number</dt>
                <dd className="cat-number">{part.number}</dd>
              </div>
              <div>
                <dt>Category</dt>
                <dd>{part.category?.name ?? <span className="muted">None</span>}</dd>
              </div>
              <div>
                <dt>Material</dt>
                <dd>{part.material ?? <span className="muted">Not known</span>}</dd>
              </div>
              <div>
                <dt>Used in</dt>
                <dd className="tabular">{plural(usedIn.total, 'piece', 'pieces')}</dd>
              </div>
            </dl>
          </section>
          <section className="card" aria-labelledby="part-colours">
            <h2 id="part-colours" className="card-heading">
              Comes in {plural(part.colours.length, 'colour', 'colours')}
            </h2>
            {part.colours.length ? (
              <ul className="cat-colours">
                {part.colours.map((colour) => (
                  <li key={colour.id}>
                    <ColourSwatch colour={colour} />
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">No piece in the catalogue uses it in a known colour.</p>
            )}
          </section>
        </div>
      </div>

      <section className="stack" aria-labelledby="part-used-in">
        <h2 id="part-used-in" className="section-title">
          Used in {plural(usedIn.total, 'piece', 'pieces')}
        </h2>
        <PagedList
          page={page}
          pageSize={usedIn.pageSize}
          total={usedIn.total}
          count={usedIn.items.length}
          hrefFor={(n) => partHref(part.number, n)}
          label="Where-used pages"
          noun="pieces"
          empty={
            <EmptyState icon="search" title="Not used in any piece">
              No piece in the catalogue lists this part.
            </EmptyState>
          }
        >
          <div className="cat-table-box">
            <div className="cat-table-wrap">
              <table className="cat-table cat-table-pairs">
                <caption className="visually-hidden">
                  Pieces that use {part.number} {part.name}, page {page}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Piece</th>
                    <th scope="col">Year</th>
                    <th scope="col" className="num">
                      Quantity
                    </th>
                    <th scope="col" className="num">
                      Spares
                    </th>
                    <th scope="col" className="num">
                      Colours
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {usedIn.items.map((use) => (
                    <tr key={use.piece.id}>
                      <td className="cat-cell-main">
                        <span className="cat-part">
                          <CatalogueImage src={use.piece.imageUrl} size="thumb" />
                          <AppLink to={paths.piece(use.piece.number)} state={state} className="cat-cell-title">
                            <span className="cat-number">{use.piece.number}</span> <span>{use.piece.name}</span>
                          </AppLink>
                        </span>
                      </td>
                      <td data-label="Year">{use.piece.year ?? <span className="muted">Not known</span>}</td>
                      <td data-label="Quantity" className="num">
                        {formatCount(use.quantity)}
                      </td>
                      <td data-label="Spares" className="num">
                        {formatCount(use.spares)}
                      </td>
                      <td data-label="Colours" className="num">
                        {formatCount(use.colours)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </PagedList>
      </section>
    </div>
  );
}
