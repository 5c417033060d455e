import './catalogue.css';
import { redirect, useLoaderData, useLocation, useParams } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { pieceRead, pieceReads } from '@pages/catalogue.reads';
import { EmptyState } from '@/components/empty-state';
import { AppLink } from '@/lib/app-link';
import { formatCount } from '@/lib/format';
import { paths } from '@/lib/paths';
import { useRead } from '@/lib/reads';
import { queryOf, routeReads } from '@/lib/route-reads';
import { ColourSwatch } from './components/colour-swatch';
import { CatalogueHeader } from './components/catalogue-header';
import { CatalogueImage } from './components/catalogue-image';
import { backFrom, linkState, partHref, piecesHref, plural } from './catalogue.api';

const reads = routeReads(pieceReads);

/**
 * `/pieces/:number`: a piece by its number (10270-1) with its parts by category; an address by id
 * (links from before) moves to the number; anything the API cannot look up → not found.
 */
export async function loader(args: LoaderFunctionArgs) {
  const loaded = await reads.loader(args);
  if (loaded.piece.number !== args.params.id) throw redirect(paths.piece(loaded.piece.number));
  return loaded;
}

export const handle = { title: 'Piece', ...reads.handle };

/** "81 parts + 5 spares": the header, the facts and each category count alike. */
const partsAndSpares = (parts: number, spares: number) => `${plural(parts, 'part', 'parts')}${spares ? ` + ${plural(spares, 'spare', 'spares')}` : ''}`;

const groupId = (categoryId: number | undefined, index: number) => `part-group-${categoryId ?? `none-${index}`}`;

export function Component() {
  const loaded = useLoaderData<typeof loader>();
  const { id = '' } = useParams();
  // The hook rather than `reads.useReads()`: the header says when a refresh fails, with a retry.
  const { data: piece, error, isValidating, mutate } = useRead(queryOf(pieceRead(id)), loaded.piece);
  const location = useLocation();
  const back = backFrom(location.state);
  // A part opened from here comes back here.
  const state = linkState(location.state, { href: paths.piece(piece.number), label: `${piece.number} ${piece.name}` });
  const { totals } = piece;

  return (
    <div className="stack-lg catalogue">
      <CatalogueHeader
        back={back}
        eyebrow={piece.category?.name ?? 'Piece'}
        title={piece.name}
        what="piece"
        refresh={{ error, retrying: isValidating, retry: () => void mutate() }}
        facts={
          <>
            <span className="cat-number">{piece.number}</span>
            {piece.year !== null ? <span>{piece.year}</span> : null}
            <span>{partsAndSpares(totals.quantity, totals.spares)}</span>
          </>
        }
      />

      <div className="cat-overview">
        <CatalogueImage src={piece.imageUrl} size="large" />
        <section className="card" aria-labelledby="piece-facts">
          <h2 id="piece-facts" className="card-heading">
            About this piece
          </h2>
          <dl className="cat-facts">
            <div>
              <dt>Number</dt>
              <dd className="cat-number">{piece.number}</dd>
            </div>
            <div>
              <dt>Year</dt>
              <dd>{piece.year ?? <span className="muted">Not known</span>}</dd>
            </div>
            <div>
              <dt>Category</dt>
              <dd>
                {piece.category ? (
                  <AppLink to={piecesHref({ category: piece.category.id })}>{piece.category.name}</AppLink>
                ) : (
                  <span className="muted">None</span>
                )}
              </dd>
            </div>
            <div>
              <dt>Parts</dt>
              <dd className="tabular">{formatCount(totals.quantity)}</dd>
            </div>
            <div>
              <dt>Different parts</dt>
              <dd className="tabular">{formatCount(totals.distinctParts)}</dd>
            </div>
            <div>
              <dt>Spares</dt>
              <dd className="tabular">{totals.spares ? formatCount(totals.spares) : 'None'}</dd>
            </div>
          </dl>
        </section>
      </div>

      <section className="stack" aria-labelledby="piece-parts">
        <h2 id="piece-parts" className="section-title">
          Parts by category
        </h2>
        {piece.groups.length ? (
          <p className="section-lede">
            {plural(totals.lines, 'line', 'lines')} (a part in one colour) in {plural(piece.groups.length, 'category', 'categories')}
          </p>
        ) : null}
        {piece.groups.length === 0 ? (
          <div className="card">
            <EmptyState icon="search" title="No parts listed">
              The catalogue has no parts list for this piece.
            </EmptyState>
          </div>
        ) : (
          <>
            {piece.groups.length > 1 ? (
              <nav aria-label="Part categories">
                <ul className="cat-jump">
                  {piece.groups.map((group, index) => (
                    <li key={groupId(group.category?.id, index)}>
                      <a href={`#${groupId(group.category?.id, index)}`}>
                        {group.category?.name ?? 'Other parts'} <span className="muted tabular">{partsAndSpares(group.quantity, group.spares)}</span>
                      </a>
                    </li>
                  ))}
                </ul>
              </nav>
            ) : null}
            {piece.groups.map((group, index) => {
              const id = groupId(group.category?.id, index);
              const name = group.category?.name ?? 'Other parts';
              return (
                <section key={id} id={id} className="cat-group" aria-labelledby={`${id}-title`}>
                  <h3 id={`${id}-title`} className="cat-group-title">
                    {name} <span className="muted small tabular">{partsAndSpares(group.quantity, group.spares)}</span>
                  </h3>
                  <div className="cat-table-box">
                    <div className="cat-table-wrap">
                      <table className="cat-table">
                        <caption className="visually-hidden">{name}: each part with its colour and quantity</caption>
                        <thead>
                          <tr>
                            <th scope="col">Part</th>
                            <th scope="col">Colour</th>
                            <th scope="col" className="num">
                              Quantity
                            </th>
                            <th scope="col">Spare</th>
                          </tr>
                        </thead>
                        <tbody>
                          {group.lines.map((line) => (
                            <tr key={`${line.part.id}-${line.colour.id}-${line.spare ? 's' : 'n'}`}>
                              <td className="cat-cell-main">
                                <span className="cat-part">
                                  <CatalogueImage src={line.part.imageUrl} size="thumb" />
                                  <AppLink to={partHref(line.part.number)} state={state} className="cat-cell-title">
                                    <span className="cat-number">{line.part.number}</span> <span>{line.part.name}</span>
                                  </AppLink>
                                </span>
                              </td>
                              <td data-label="Colour" className="cat-colour-cell">
                                <ColourSwatch colour={line.colour} />
                              </td>
                              <td data-label="Quantity" className="num">
                                {formatCount(line.quantity)}
                              </td>
                              <td data-label="Spare" className="cat-spare">
                                {line.spare ? <span className="badge badge-warn">Spare</span> : null}
                              </td>
                            </tr>
                          ))}
                        </tbody>
                      </table>
                    </div>
                  </div>
                </section>
              );
            })}
          </>
        )}
      </section>
    </div>
  );
}
