import * as v from 'valibot';
import { idText, PictureQuerySchema } from './common.contract';
import { endpoint } from './endpoint.contract';

/**
 * Sample pages on public APIs (`/api/samples`, public): PokeAPI, the Rick and Morty API and
 * JSONPlaceholder, called by the BFF (never by the browser) with a timeout, one upstream call for
 * identical requests in flight, a short in-memory cache and a copy in the database that is served,
 * marked stale, when the upstream cannot be reached. Their shapes are mapped to ours here; pictures
 * come through `GET /api/samples/images?src=` from the providers' own hosts only.
 */

/** Pokémon and posts are listed six to a page; Rick and Morty's pages are its own (20). */
export const SAMPLE_PAGE_SIZE = 6;
export const RICK_PAGE_SIZE = 20;

/** How fresh an answer is: `stale` when the upstream could not be reached and the last copy was served. */
export const FreshnessSchema = v.object({
  fetchedAt: v.string(),
  stale: v.boolean(),
  /** Seconds since `fetchedAt` when the answer was sent. */
  ageSeconds: v.number(),
});
export type Freshness = v.InferOutput<typeof FreshnessSchema>;

const pageText = (max: number) =>
  v.pipe(v.string(), v.regex(/^\d{1,6}$/, 'Expected a page number of 0 or more'), v.transform(Number), v.maxValue(max, `Expected a page number up to ${max}`));
/** `?page=<0-based>` of a sample list (the page size is the sample's own). */
export const SamplePageQuerySchema = v.object({ page: v.optional(pageText(100_000), '0') });

const samplePage = <TItem extends v.GenericSchema>(item: TItem) =>
  v.object({ items: v.array(item), page: v.number(), pageSize: v.number(), total: v.number(), freshness: FreshnessSchema });

// ---- PokeAPI -----------------------------------------------------------------------------------

export const PokemonSummarySchema = v.object({ id: v.number(), name: v.string(), image: v.nullable(v.string()) });
export type PokemonSummary = v.InferOutput<typeof PokemonSummarySchema>;
export const PokemonPageSchema = samplePage(PokemonSummarySchema);

export const PokemonSchema = v.object({
  id: v.number(),
  name: v.string(),
  image: v.nullable(v.string()),
  types: v.array(v.string()),
  stats: v.array(v.object({ name: v.string(), value: v.number() })),
  /** Decimetres and hectograms, as PokeAPI gives them. */
  height: v.number(),
  weight: v.number(),
  freshness: FreshnessSchema,
});
export type Pokemon = v.InferOutput<typeof PokemonSchema>;

/** A Pokémon by its number or its name (`25`, `pikachu`, `mr-mime`). */
export const PokemonRefParamSchema = v.object({
  idOrName: v.union([idText(), v.pipe(v.string(), v.toLowerCase(), v.regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Expected a Pokémon number or name'))], 'Expected a Pokémon number or a name such as pikachu'),
});

// ---- Rick and Morty ----------------------------------------------------------------------------

export const RICK_STATUSES = ['alive', 'dead', 'unknown'] as const;
export const RickQuerySchema = v.object({
  ...SamplePageQuerySchema.entries,
  name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'A name to search is at most 100 characters'))),
  status: v.optional(v.picklist(RICK_STATUSES, `Expected status to be one of ${RICK_STATUSES.join(', ')}`)),
});
export type RickQuery = v.InferOutput<typeof RickQuerySchema>;

export const CharacterSchema = v.object({
  id: v.number(),
  name: v.string(),
  status: v.picklist(['Alive', 'Dead', 'unknown']),
  species: v.string(),
  type: v.string(),
  gender: v.string(),
  origin: v.string(),
  /** Last known location. */
  location: v.string(),
  image: v.nullable(v.string()),
  episodeCount: v.number(),
});
export type Character = v.InferOutput<typeof CharacterSchema>;
/** `pages` is Rick and Morty's own count of pages (0 when nothing matches). */
export const CharacterPageSchema = v.object({ ...samplePage(CharacterSchema).entries, pages: v.number() });

// ---- JSONPlaceholder ---------------------------------------------------------------------------

export const PostSchema = v.object({ id: v.number(), userId: v.number(), title: v.string(), body: v.string() });
export type Post = v.InferOutput<typeof PostSchema>;
export const PostPageSchema = samplePage(PostSchema);

export const AuthorSchema = v.object({ id: v.number(), name: v.string(), username: v.string(), email: v.string(), website: v.string(), company: v.string() });
export const PostWithAuthorSchema = v.object({ ...PostSchema.entries, author: v.nullable(AuthorSchema), freshness: FreshnessSchema });
export type PostWithAuthor = v.InferOutput<typeof PostWithAuthorSchema>;

export const CommentSchema = v.object({ id: v.number(), name: v.string(), email: v.string(), body: v.string() });
export const CommentListSchema = v.object({ items: v.array(CommentSchema), freshness: FreshnessSchema });

export const PostIdParamSchema = v.object({ id: idText('Expected a post id (a positive integer)') });

export const samplesApi = {
  pokemonList: endpoint({
    method: 'GET',
    path: '/api/samples/pokemon',
    summary: 'Pokémon, six to a page (PokeAPI offset = page × 6)',
    access: 'public',
    query: SamplePageQuerySchema,
    response: PokemonPageSchema,
    errors: [502, 504],
  }),
  pokemon: endpoint({
    method: 'GET',
    path: '/api/samples/pokemon/:idOrName',
    summary: 'One Pokémon: types, stats, height, weight and artwork',
    access: 'public',
    params: PokemonRefParamSchema,
    response: PokemonSchema,
    errors: [404, 502, 504],
  }),
  characters: endpoint({
    method: 'GET',
    path: '/api/samples/rick',
    summary: 'Rick and Morty characters (upstream page = page + 1); past the last page or no match is an empty page',
    access: 'public',
    query: RickQuerySchema,
    response: CharacterPageSchema,
    errors: [502, 504],
  }),
  posts: endpoint({
    method: 'GET',
    path: '/api/samples/posts',
    summary: 'JSONPlaceholder posts, six to a page (_start = page × 6, _limit = 6; total from X-Total-Count)',
    access: 'public',
    query: SamplePageQuerySchema,
    response: PostPageSchema,
    errors: [502, 504],
  }),
  post: endpoint({
    method: 'GET',
    path: '/api/samples/posts/:id',
    summary: 'One post with its author',
    access: 'public',
    params: PostIdParamSchema,
    response: PostWithAuthorSchema,
    errors: [404, 502, 504],
  }),
  postComments: endpoint({
    method: 'GET',
    path: '/api/samples/posts/:id/comments',
    summary: "A post's comments",
    access: 'public',
    params: PostIdParamSchema,
    response: CommentListSchema,
    errors: [404, 502, 504],
  }),
  image: endpoint({
    method: 'GET',
    path: '/api/samples/images',
    summary: "A provider's picture (PokeAPI's and Rick and Morty's hosts only), cached on disk; a neutral placeholder picture while it cannot be had",
    access: 'public',
    query: PictureQuerySchema,
    response: v.unknown(),
    stream: 'file',
    errors: [404],
  }),
};
