import * as v from 'valibot';
import { read } from '../bff/contracts/endpoint.contract';
import { PokemonRefParamSchema, RICK_STATUSES, samplesApi } from '../bff/contracts/samples.contract';
import { pages } from './pages';
import { AddressNotFound, idParam, inPage, type AreaReads, type PageAddress } from './reads';
import { shellLayoutReads } from './shell.reads';
import { pageParam, parseSearch, toApiPage, zeroBasedPageParam } from './search-params';

/**
 * The sample pages (Rick and Morty, PokeAPI and JSONPlaceholder, all through the BFF's
 * `/api/samples`): their search params (every key falls back silently) and the reads they start
 * with. Each is an outside service: its outage shows inside the page.
 */

export type RickStatus = (typeof RICK_STATUSES)[number];

/** `?name=`: trimmed, and cut to what the API accepts rather than dropped. */
const nameParam = v.fallback(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((text) => text.slice(0, 100).trim()),
  ),
  '',
);
/** `?status=`: one of the API's statuses, or '' for any. */
const statusParam = v.fallback(v.picklist(['', ...RICK_STATUSES]), '' as '' | RickStatus);

/** `/rick?page&name&status`: the URL page is 1-based (bad → 1), the API's 0-based. */
const RickSearchSchema = v.object({ page: pageParam, name: nameParam, status: statusParam });
export type RickSearch = v.InferOutput<typeof RickSearchSchema>;
export const parseRickSearch = (search: URLSearchParams) => parseSearch(RickSearchSchema, search);

/** `/pokemon?page`: 0-based in the URL and in the API (the spec's one exception); bad → 0. */
const PokemonSearchSchema = v.object({ page: zeroBasedPageParam });
export const parsePokemonSearch = (search: URLSearchParams) => parseSearch(PokemonSearchSchema, search);

/** `/shell/posts?page`: 1-based in the URL (bad → 1), 0-based in the API. */
const PostsSearchSchema = v.object({ page: pageParam });
export const parsePostsSearch = (search: URLSearchParams) => parseSearch(PostsSearchSchema, search);

/** Is this path segment a Pokémon the API can look up (a number, or a name such as mr-mime)? */
const isPokemonRef = (ref: string | undefined): ref is string => v.is(PokemonRefParamSchema, { idOrName: ref });

// ---- reads ------------------------------------------------------------------------------------

export const charactersRead = (search: RickSearch) =>
  inPage(read(samplesApi.characters, { query: { page: toApiPage(search.page), name: search.name || undefined, status: search.status || undefined } }));
/** A page of six Pokémon (0-based, as PokeAPI counts). */
export const pokemonPageRead = (page: number) => inPage(read(samplesApi.pokemonList, { query: { page } }));
export const pokemonRead = (idOrName: string) => inPage(read(samplesApi.pokemon, { params: { idOrName } }));
/** A page of six posts, for a 1-based URL page. */
export const postsRead = (urlPage: number) => inPage(read(samplesApi.posts, { query: { page: toApiPage(urlPage) } }));
export const postRead = (id: number) => inPage(read(samplesApi.post, { params: { id } }));
export const commentsRead = (id: number) => inPage(read(samplesApi.postComments, { params: { id } }));

/** The Pokémon in the address (a number or a name), or `AddressNotFound`: a name that cannot be one is not asked for. */
function pokemonParam({ params }: PageAddress): string {
  const ref = params.idOrName;
  if (!isPokemonRef(ref)) throw new AddressNotFound(`No Pokémon called ${ref ?? ''}`);
  return ref;
}

// ---- each page's reads ------------------------------------------------------------------------

export const rickReads = ({ search }: PageAddress) => ({ characters: charactersRead(parseRickSearch(search)) });

export const pokemonListReads = ({ search }: PageAddress) => ({ pokemon: pokemonPageRead(parsePokemonSearch(search).page) });

export const pokemonReads = (address: PageAddress) => ({ pokemon: pokemonRead(pokemonParam(address)) });

/** The quiz's first round starts from the first page (how many Pokémon there are); the page it draws from depends on that answer. */
export const quizReads = () => ({ firstPage: pokemonPageRead(0) });

export const postsListReads = ({ search }: PageAddress) => ({ posts: postsRead(parsePostsSearch(search).page) });

/** The fake "i-do-not-exist" post of the list is no id: not found, without a call. */
export const postReads = (address: PageAddress) => ({ post: postRead(idParam(address, 'postId', 'post')) });

/** The post beside its comments (the post is the same read as its own page's). */
export const postDeepReads = (address: PageAddress) => {
  const id = idParam(address, 'postId', 'post');
  return { post: postRead(id), comments: commentsRead(id) };
};

export const samplesReads = {
  rick: rickReads,
  pokemonList: pokemonListReads,
  pokemon: pokemonReads,
  quiz: quizReads,
  posts: (address) => ({ ...shellLayoutReads(pages.posts), ...postsListReads(address) }),
  post: (address) => ({ ...shellLayoutReads(pages.post), ...postReads(address) }),
  postDeep: (address) => ({ ...shellLayoutReads(pages.postDeep), ...postDeepReads(address) }),
} satisfies AreaReads;
