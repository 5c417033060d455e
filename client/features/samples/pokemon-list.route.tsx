import './samples.css';
import type { PokemonSummary } from '@contracts/samples.contract';
import { parsePokemonSearch, pokemonListReads } from '@pages/samples.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { PagedList } from '@/components/paged-list';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { useSearch } from '@/lib/search-params';
import { CardSkeletons, useListLoading } from './components/card-skeletons';
import { SampleFailure } from './components/sample-failure';
import { SampleImage } from './components/sample-image';
import { StaleNotice } from './components/stale-notice';
import { dexNumber, displayName, pokemonListHref, type ListLinkState } from './samples.api';

/** `/pokemon?page`: six Pokémon a page; the page is 0-based in the URL and the call alike (bad → 0). */
const reads = routeReads(pokemonListReads);
export const { loader } = reads;
export const handle = { title: 'Pokémon', ...reads.handle };

function PokemonCard({ pokemon, state }: { pokemon: PokemonSummary; state: ListLinkState }) {
  return (
    <li className="smp-card smp-pokemon">
      <SampleImage src={pokemon.image} alt="" size="card" />
      <div className="smp-card-body">
        <AppLink to={paths.pokemon(pokemon.name)} state={state} className="smp-card-link">
          <span className="smp-dex">{dexNumber(pokemon.id)}</span> <span className="smp-card-name">{displayName(pokemon.name)}</span>
        </AppLink>
      </div>
    </li>
  );
}

export function Component() {
  const { pokemon: read } = reads.useReads();
  const search = useSearch(parsePokemonSearch);
  const pokemon = read.data;
  const { busy, skeletons } = useListLoading(paths.pokemonList);
  const state: ListLinkState = { list: pokemonListHref(search.page) };

  return (
    <div className="stack-lg samples">
      <PageHeader
        eyebrow="Samples"
        title="Pokémon"
        actions={
          <AppLink to={paths.quiz} className="btn">
            <Icon name="question" size={18} /> Who’s that Pokémon?
          </AppLink>
        }
      >
        <p>The Pokédex from PokeAPI, six at a time. Open one to see its types, stats and size.</p>
      </PageHeader>

      {read.error ? (
        <SampleFailure error={read.error} what="the Pokémon" service="pokemon" refresh={pokemon !== undefined} onRetry={() => void read.mutate()} retrying={read.isValidating} />
      ) : null}
      <StaleNotice freshness={pokemon?.freshness} service="pokemon" onRetry={() => void read.mutate()} retrying={read.isValidating} />

      {skeletons || (!pokemon && read.isValidating) ? (
        <CardSkeletons count={6} what="the Pokémon" six />
      ) : pokemon ? (
        // The pagination counts pages from 1 for the reader; the URL keeps PokeAPI's 0-based page.
        <PagedList
          page={search.page + 1}
          pageSize={pokemon.pageSize}
          total={pokemon.total}
          count={pokemon.items.length}
          hrefFor={(page) => pokemonListHref(page - 1)}
          label="Pokémon pages"
          noun="Pokémon"
          empty={
            <EmptyState icon="ball" title="No Pokémon">
              PokeAPI has no Pokémon to show.
            </EmptyState>
          }
        >
          <ul className="smp-grid smp-grid-six" aria-label="Pokémon" aria-busy={busy}>
            {pokemon.items.map((p) => (
              <PokemonCard key={p.id} pokemon={p} state={state} />
            ))}
          </ul>
        </PagedList>
      ) : null}
    </div>
  );
}
