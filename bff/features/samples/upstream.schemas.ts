import * as v from 'valibot';

/**
 * The parts of the upstreams' answers the sample pages read (docs: PokeAPI's resource lists and
 * Pokémon, Rick and Morty's characters, JSONPlaceholder's posts, users and comments). Only what is
 * mapped is required; anything else the upstreams send is ignored.
 */

// ---- PokeAPI -----------------------------------------------------------------------------------

/** `GET /pokemon?offset=&limit=` → `{count, next, previous, results: [{name, url}]}`. */
export const PokeApiListSchema = v.object({
  count: v.number(),
  results: v.array(v.object({ name: v.string(), url: v.string() })),
});

/** `GET /pokemon/:idOrName`. */
export const PokeApiPokemonSchema = v.object({
  id: v.number(),
  name: v.string(),
  height: v.number(),
  weight: v.number(),
  types: v.array(v.object({ slot: v.number(), type: v.object({ name: v.string() }) })),
  stats: v.array(v.object({ base_stat: v.number(), stat: v.object({ name: v.string() }) })),
  sprites: v.object({
    other: v.optional(v.object({ 'official-artwork': v.optional(v.object({ front_default: v.nullish(v.string()) })) })),
  }),
});

// ---- Rick and Morty ----------------------------------------------------------------------------

const place = v.object({ name: v.string() });

/** `GET /character?page=&name=&status=` → `{info: {count, pages, next, prev}, results: [character]}`; 404 past the end. */
export const RickPageSchema = v.object({
  info: v.object({ count: v.number(), pages: v.number() }),
  results: v.array(
    v.object({
      id: v.number(),
      name: v.string(),
      status: v.picklist(['Alive', 'Dead', 'unknown']),
      species: v.string(),
      type: v.string(),
      gender: v.string(),
      origin: place,
      location: place,
      image: v.string(),
      episode: v.array(v.string()),
    }),
  ),
});

/** What Rick and Morty answers with its 404: `{"error": "There is nothing here"}`. */
export const RickNothingHereSchema = v.object({ error: v.string() });

// ---- JSONPlaceholder ---------------------------------------------------------------------------

export const PlaceholderPostSchema = v.object({ userId: v.number(), id: v.number(), title: v.string(), body: v.string() });
export const PlaceholderPostListSchema = v.array(PlaceholderPostSchema);

export const PlaceholderUserSchema = v.object({
  id: v.number(),
  name: v.string(),
  username: v.string(),
  email: v.string(),
  website: v.string(),
  company: v.object({ name: v.string() }),
});

export const PlaceholderCommentListSchema = v.array(v.object({ id: v.number(), name: v.string(), email: v.string(), body: v.string() }));
