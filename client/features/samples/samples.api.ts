import type { Character, Freshness, PokemonSummary } from '@contracts/samples.contract';
import { pokemonPageRead, type RickSearch } from '@pages/samples.reads';
import { ApiError, NetworkError, errorMessage } from '@/lib/api-client';
import { paths } from '@/lib/paths';
import { load } from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';

/**
 * The sample pages' client side (Rick and Morty, PokeAPI and JSONPlaceholder, all through the BFF's
 * `/api/samples`; their reads are declared in pages/samples.reads.ts): the links, an upstream's
 * failure in words, the numbers and names as a reader writes them, and the quiz's rounds.
 */

// ---- links ----------------------------------------------------------------------------------

/** The character list with these params (page 1 and empty filters are left out). */
export function rickHref(search: Partial<RickSearch>): string {
  const params = new URLSearchParams();
  if (search.name) params.set('name', search.name);
  if (search.status) params.set('status', search.status);
  if (search.page && search.page > 1) params.set('page', String(search.page));
  const query = params.toString();
  return query ? `${paths.rick}?${query}` : paths.rick;
}

/** A page of the Pokémon list (0-based; page 0 is left out). */
export const pokemonListHref = (page: number) => (page > 0 ? `${paths.pokemonList}?page=${page}` : paths.pokemonList);

/** A page of the posts (1-based; page 1 is left out). */
export const postsHref = (page: number) => (page > 1 ? `${paths.posts}?page=${page}` : paths.posts);

/**
 * Links from a list to one of its items carry the list's URL in the history entry's state, so
 * "back to the list" returns to the same page (after a reload too). `prefix` says which list URLs
 * are acceptable; anything else (no state, a forged one) is the list's first page.
 */
export type ListLinkState = { list: string };
export function listFrom(state: unknown, base: string): string {
  const list = (state as Partial<ListLinkState> | null | undefined)?.list;
  return typeof list === 'string' && (list === base || list.startsWith(`${base}?`)) ? list : base;
}

// ---- the fake post ----------------------------------------------------------------------------

/**
 * Page 1 of the posts starts with a post that does not exist (the spec's test of missing-item
 * handling): its link must end on the not-found screen. Display only, never cached.
 */
export const FAKE_POST = { id: 'i-do-not-exist', title: 'Non-existent Post' } as const;

/** The number a post shows in the list: index = page × 6 + position + 1 (the API's 0-based page). */
export const postNumber = (apiPage: number, pageSize: number, position: number) => apiPage * pageSize + position + 1;

// ---- failures ----------------------------------------------------------------------------------

/** The upstream services by the names a reader knows, as written inside a sentence. */
export const SERVICES = { rick: 'the Rick and Morty API', pokemon: 'PokeAPI', posts: 'JSONPlaceholder' } as const;
export type Service = keyof typeof SERVICES;
const sentenceStart = (text: string) => text[0]!.toUpperCase() + text.slice(1);

/**
 * Why a sample read failed, in words: the BFF answers 502 when the service cannot be reached and
 * 504 when it did not answer in time; anything else says what the error says.
 */
export function failureText(error: unknown, service: Service): string {
  const name = sentenceStart(SERVICES[service]);
  if (error instanceof ApiError && error.status === 502) return `${name} cannot be reached right now. Try again in a moment.`;
  if (error instanceof ApiError && error.status === 504) return `${name} did not answer in time. Try again in a moment.`;
  if (error instanceof NetworkError) return 'The Frontdesk server cannot be reached. Check the connection and try again.';
  return errorMessage(error);
}

// ---- words and numbers ------------------------------------------------------------------------

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'always' });
/** "45 seconds ago", "12 minutes ago", "3 hours ago", "2 days ago". */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return relative.format(-s, 'second');
  if (s < 3600) return relative.format(-Math.floor(s / 60), 'minute');
  if (s < 86_400) return relative.format(-Math.floor(s / 3600), 'hour');
  return relative.format(-Math.floor(s / 86_400), 'day');
}

const oneDecimal = new Intl.NumberFormat(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
/** PokeAPI's decimetres as metres ("0.4 m"). */
export const formatHeight = (decimetres: number) => `${oneDecimal.format(decimetres / 10)} m`;
/** PokeAPI's hectograms as kilograms ("6.0 kg"). */
export const formatWeight = (hectograms: number) => `${oneDecimal.format(hectograms / 10)} kg`;

/** "mr-mime" → "Mr Mime", "pikachu" → "Pikachu": PokeAPI's names as a reader writes them. */
export const displayName = (name: string) =>
  name
    .split('-')
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join(' ');

/** "#025": the Pokédex number. */
export const dexNumber = (id: number) => `#${String(id).padStart(3, '0')}`;

/** PokeAPI's stat names as the games print them. */
const STAT_LABELS: Record<string, string> = {
  hp: 'HP',
  attack: 'Attack',
  defense: 'Defense',
  'special-attack': 'Sp. Atk',
  'special-defense': 'Sp. Def',
  speed: 'Speed',
};
export const statLabel = (name: string) => STAT_LABELS[name] ?? displayName(name);
/** The bars' full width: the highest base stat any Pokémon has. */
export const STAT_MAX = 255;

/** Rick and Morty's three statuses in words, and the badge tone of each (the word is always shown). */
export const CHARACTER_STATUS: Record<Character['status'], { label: string; tone: 'ok' | 'bad' | 'muted' }> = {
  Alive: { label: 'Alive', tone: 'ok' },
  Dead: { label: 'Dead', tone: 'bad' },
  unknown: { label: 'Unknown', tone: 'muted' },
};

// ---- the quiz ---------------------------------------------------------------------------------

/** One round of "Who's that Pokémon?": four names, one of them the picture's. */
export type QuizRound = { id: number; options: PokemonSummary[]; answer: PokemonSummary; /** Of the page it was drawn from (a stale copy when PokeAPI is down). */ freshness: Freshness };
export const QUIZ_OPTIONS = 4;

let roundSeq = 0;

/** Fisher–Yates with the given random source (tests pass their own). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * Draws a round from the sample data: the first page says how many Pokémon there are, a random
 * full page gives six, four of them are the choices and one with a picture is the answer. Pages
 * are read through the cache (PokeAPI asks its clients to cache).
 */
export async function drawRound(random: () => number = Math.random): Promise<QuizRound> {
  // One try each (PokeAPI down shows in the page at once), the failure thrown to the caller.
  const readPage = async (page: number) => {
    // `queryOf` types away the read's in-page outage: said again so `load` answers `{ data, error }`.
    const { data, error } = await load({ ...queryOf(pokemonPageRead(page)), outage: 'in-page' as const });
    if (data === undefined) throw error;
    return data;
  };
  const first = await readPage(0);
  // Only full pages: the last one may hold fewer than four.
  const fullPages = Math.max(1, Math.floor(first.total / Math.max(1, first.pageSize)));
  const page = Math.min(fullPages - 1, Math.floor(random() * fullPages));
  const list = page === 0 ? first : await readPage(page);
  const pictured = list.items.filter((p) => p.image);
  if (pictured.length === 0 || list.items.length < 2) throw new Error('There are not enough Pokémon with a picture to play with.');
  const answer = pictured[Math.floor(random() * pictured.length)]!;
  const others = shuffled(
    list.items.filter((p) => p.id !== answer.id),
    random,
  ).slice(0, QUIZ_OPTIONS - 1);
  return { id: ++roundSeq, answer, options: shuffled([answer, ...others], random), freshness: list.freshness };
}
