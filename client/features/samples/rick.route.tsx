import './samples.css';
import { RICK_STATUSES, type Character } from '@contracts/samples.contract';
import { parseRickSearch, rickReads, type RickSearch, type RickStatus } from '@pages/samples.reads';
import { EmptyState, NoMatchState } from '@/components/empty-state';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { SearchBox } from '@/components/search-box';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { useSearch, useSetSearchParam } from '@/lib/search-params';
import { CardSkeletons, useListLoading } from './components/card-skeletons';
import { SampleFailure } from './components/sample-failure';
import { SampleImage } from './components/sample-image';
import { StaleNotice } from './components/stale-notice';
import { CHARACTER_STATUS, rickHref } from './samples.api';

/**
 * `/rick?page&name&status`: Rick and Morty's characters. The URL page is 1-based (bad → 1), the
 * API's 0-based; name and status filter in the URL. An unreachable service shows inside the page.
 */
const reads = routeReads(rickReads);
export const { loader } = reads;
export const handle = { title: 'Rick and Morty', ...reads.handle };

const STATUS_WORDS: Record<RickStatus, string> = { alive: 'Alive', dead: 'Dead', unknown: 'Unknown' };

function CharacterCard({ character }: { character: Character }) {
  const status = CHARACTER_STATUS[character.status];
  return (
    <li className="smp-card smp-character">
      <SampleImage src={character.image} alt="" size="portrait" />
      <div className="smp-card-body">
        <h2 className="smp-card-title">{character.name}</h2>
        <p className="smp-status-line">
          <span className={`badge badge-${status.tone} smp-status`}>
            <span className="smp-status-dot" aria-hidden="true" />
            {status.label}
          </span>
          <span>{character.species}</span>
        </p>
        <dl className="smp-card-facts">
          <dt>Last known location</dt>
          <dd>{character.location || 'Unknown'}</dd>
        </dl>
      </div>
    </li>
  );
}

/** "23 characters match “rick” · Alive", said politely when it changes. */
function summary(total: number, search: RickSearch): string {
  const noun = `${total} ${total === 1 ? 'character' : 'characters'}`;
  const status = search.status ? ` · ${STATUS_WORDS[search.status]}` : '';
  if (search.name) return `${noun} ${total === 1 ? 'matches' : 'match'} “${search.name}”${status}`;
  return `${noun}${status}`;
}

export function Component() {
  const { characters: read } = reads.useReads();
  const search = useSearch(parseRickSearch);
  const characters = read.data;
  const setSearchParam = useSetSearchParam();
  const { busy, skeletons } = useListLoading(paths.rick);
  const filtered = Boolean(search.name || search.status);

  return (
    <div className="stack-lg samples">
      <PageHeader eyebrow="Samples" title="Rick and Morty">
        <p>Every character of the show, from the Rick and Morty API. Search by name or pick a status.</p>
      </PageHeader>

      <div className="toolbar">
        <SearchBox value={search.name} onSearch={(name) => setSearchParam('name', name, { replace: true })} label="Search characters by name" placeholder="Search by name, such as Rick" busy={busy} />
        <div className="toolbar-filters">
          <label className="field-inline">
            <span>Status</span>
            <select value={search.status} onChange={(e) => setSearchParam('status', e.target.value)}>
              <option value="">Any status</option>
              {RICK_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {STATUS_WORDS[status]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>

      {read.error ? (
        <SampleFailure error={read.error} what="the characters" service="rick" refresh={characters !== undefined} onRetry={() => void read.mutate()} retrying={read.isValidating} />
      ) : null}
      <StaleNotice freshness={characters?.freshness} service="rick" onRetry={() => void read.mutate()} retrying={read.isValidating} />

      <p className="smp-count" role="status">
        {characters && !skeletons ? summary(characters.total, search) : ''}
      </p>

      {skeletons || (!characters && read.isValidating) ? (
        <CardSkeletons count={characters?.items.length || 6} what="the characters" variant="portrait" />
      ) : characters ? (
        <PagedList
          page={search.page}
          pageSize={characters.pageSize}
          total={characters.total}
          count={characters.items.length}
          hrefFor={(page) => rickHref({ ...search, page })}
          label="Character pages"
          noun="characters"
          empty={
            filtered ? (
              <NoMatchState title="No characters match" clearTo={paths.rick} clearLabel="Clear the search and status">
                {search.name ? `No one called “${search.name}”` : 'No one'}
                {search.status ? ` is ${STATUS_WORDS[search.status].toLowerCase()}` : ''}. Try another name, such as Morty.
              </NoMatchState>
            ) : (
              <EmptyState icon="portal" title="No characters">
                The Rick and Morty API has no characters to show.
              </EmptyState>
            )
          }
        >
          <ul className="smp-grid" aria-label="Characters" aria-busy={busy}>
            {characters.items.map((character) => (
              <CharacterCard key={character.id} character={character} />
            ))}
          </ul>
        </PagedList>
      ) : null}
    </div>
  );
}
