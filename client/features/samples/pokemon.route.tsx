import './samples.css';
import { useLocation, useParams } from 'react-router';
import type { Pokemon } from '@contracts/samples.contract';
import { pokemonReads } from '@pages/samples.reads';
import { PageHeader } from '@/components/page-header';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';
import { SampleFailure } from './components/sample-failure';
import { SampleImage } from './components/sample-image';
import { StaleNotice } from './components/stale-notice';
import { STAT_MAX, dexNumber, displayName, formatHeight, formatWeight, listFrom, statLabel } from './samples.api';

/**
 * `/pokemon/:idOrName`: one Pokémon's types, stats and size. A malformed ref is not found at once;
 * one PokeAPI does not know is not found too; an unreachable service shows inside the page.
 */
const reads = routeReads(pokemonReads);
export const { loader } = reads;
export const handle = { title: 'Pokémon', ...reads.handle };

function Stats({ stats }: { stats: Pokemon['stats'] }) {
  const total = stats.reduce((sum, stat) => sum + stat.value, 0);
  return (
    <section className="card" aria-labelledby="stats-title">
      <h2 id="stats-title" className="card-heading">
        Base stats
      </h2>
      <ul className="smp-stats">
        {stats.map((stat) => (
          <li key={stat.name} className="smp-stat">
            <span className="smp-stat-name">{statLabel(stat.name)}</span>
            <span className="smp-stat-value tabular">{stat.value}</span>
            {/* The number says it; the bar only draws it against the highest base stat (255). */}
            <span className="smp-bar" aria-hidden="true">
              <span className="smp-bar-fill" style={{ width: `${Math.min(100, (stat.value / STAT_MAX) * 100)}%` }} data-level={stat.value >= 100 ? 'high' : stat.value >= 60 ? 'mid' : 'low'} />
            </span>
          </li>
        ))}
        <li className="smp-stat smp-stat-total">
          <span className="smp-stat-name">Total</span>
          <span className="smp-stat-value tabular">{total}</span>
        </li>
      </ul>
    </section>
  );
}

export function Component() {
  const { pokemon: read } = reads.useReads();
  const { idOrName: ref = '' } = useParams();
  const location = useLocation();
  const back = listFrom(location.state, paths.pokemonList);
  const pokemon = read.data;

  return (
    <div className="stack-lg samples">
      <AppLink to={back} className="back-link">
        ← All Pokémon
      </AppLink>
      {pokemon ? (
        <>
          <PageHeader eyebrow={`Pokémon ${dexNumber(pokemon.id)}`} title={displayName(pokemon.name)} />
          {read.error ? <SampleFailure error={read.error} what="this Pokémon" service="pokemon" refresh onRetry={() => void read.mutate()} retrying={read.isValidating} /> : null}
          <StaleNotice freshness={pokemon.freshness} service="pokemon" onRetry={() => void read.mutate()} retrying={read.isValidating} />
          <div className="smp-detail">
            <SampleImage src={pokemon.image} alt={`${displayName(pokemon.name)}’s official artwork`} size="large" eager />
            <div className="stack">
              <section className="card" aria-labelledby="about-title">
                <h2 id="about-title" className="card-heading">
                  About
                </h2>
                <dl className="smp-facts">
                  <div>
                    <dt>{pokemon.types.length === 1 ? 'Type' : 'Types'}</dt>
                    <dd>
                      <ul className="smp-types">
                        {pokemon.types.map((type) => (
                          <li key={type} className="smp-type" data-type={type}>
                            {displayName(type)}
                          </li>
                        ))}
                      </ul>
                    </dd>
                  </div>
                  <div>
                    <dt>Height</dt>
                    <dd className="tabular">{formatHeight(pokemon.height)}</dd>
                  </div>
                  <div>
                    <dt>Weight</dt>
                    <dd className="tabular">{formatWeight(pokemon.weight)}</dd>
                  </div>
                </dl>
              </section>
              <Stats stats={pokemon.stats} />
            </div>
          </div>
        </>
      ) : (
        <>
          <PageHeader eyebrow="Pokémon" title={/^\d+$/.test(ref) ? `Pokémon ${dexNumber(Number(ref))}` : displayName(ref)} />
          {read.error ? <SampleFailure error={read.error} what="this Pokémon" service="pokemon" onRetry={() => void read.mutate()} retrying={read.isValidating} /> : null}
        </>
      )}
    </div>
  );
}
