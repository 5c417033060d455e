import * as v from 'valibot';

/** The empty answer of a 204. */
export const NoContentSchema = v.undefined();

/** Ids are positive integers that fit the databases' integer columns (PostgreSQL's `integer` ends at 2³¹ − 1); anything else in a path is a 400. */
export const MAX_ID = 2_147_483_647;
const ID_TEXT = /^[1-9]\d{0,9}$/;

/** An id written as text (a path segment, a query value) → the number; `message` says what it names. */
export const idText = (message = 'Expected a positive integer id') =>
  v.pipe(v.string(), v.regex(ID_TEXT, message), v.transform(Number), v.maxValue(MAX_ID, message));

/** Is this text an id the API would accept? (Client routes turn anything else into a 404 at once.) */
export const isIdText = (text: string | undefined): text is string => ID_TEXT.test(text ?? '') && Number(text) <= MAX_ID;

/**
 * Messages a person reads (on a form's field before anything is sent, and in the server's 400 for
 * the same input) are written here, in the contracts, once: the client checks bodies with these
 * schemas and shows their words.
 */

/** The limit of every text a person types, in words. */
export const atMost = (max: number) => `Use at most ${max} characters`;

/** An email address as a person types it: trimmed, lower-cased. */
export const EmailSchema = v.pipe(
  v.string('Enter an email address'),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty('Enter an email address'),
  v.maxLength(254, atMost(254)),
  v.email('Enter an email address such as name@example.com'),
);

/** Text a person must fill in: trimmed, not blank, at most `max` characters. `missing` asks for it ("Enter the owner’s name"). */
export const requiredText = (missing: string, max: number) => v.pipe(v.string(missing), v.trim(), v.nonEmpty(missing), v.maxLength(max, atMost(max)));

/** Text a person may leave empty (empty is none: null), at most `max` characters. */
export const optionalText = (max: number) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string('Enter text'),
        v.trim(),
        v.maxLength(max, atMost(max)),
        v.transform((s) => s || null),
      ),
    ),
  );

/** A moment as an ISO 8601 timestamp with its zone ("2026-03-02T00:00:00+01:00"), normalised to UTC ("2026-03-01T23:00:00.000Z") as stored. */
export const isoInstant = (message = 'Expected an ISO 8601 time such as 2026-03-02T00:00:00.000Z') =>
  v.pipe(v.string(), v.isoTimestamp(message), v.transform((s) => new Date(s).toISOString()));

const DAY_WORDS = 'Expected a day as YYYY-MM-DD';
/** A real calendar day (no 30 February); what is not shaped as a day at all is said once, by the format's check. */
const isCalendarDay = (day: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return true;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
};
/** A calendar day as YYYY-MM-DD (a day at the venue: a report's, the day a pause ends). */
export const CalendarDaySchema = v.pipe(v.string(DAY_WORDS), v.isoDate(DAY_WORDS), v.check(isCalendarDay, 'There is no such day'));

/** `:id` of a path. */
export const IdParamSchema = v.object({ id: idText() });

/**
 * `?erase=true` on deleting a person (a member, an account): their name and email also go from door
 * events, conversations and the audit trail, which keep their rows as anonymous counts (decision
 * 0097). Without it the history keeps who it was.
 */
export const EraseQuerySchema = v.object({
  erase: v.optional(v.pipe(v.picklist(['true', 'false'], 'erase is true or false'), v.transform((text) => text === 'true')), 'false'),
});

/** An id in a JSON body. */
export const idNumber = (message: string) => v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(MAX_ID, message));

export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

const wholeNumber = (min: number, max: number, message: string) =>
  v.pipe(v.string(), v.regex(/^\d{1,9}$/, message), v.transform(Number), v.minValue(min, message), v.maxValue(max, message));

/** `?page=<0-based>&pageSize=` of every list call. */
export const PageQuerySchema = v.object({
  page: v.optional(wholeNumber(0, 1_000_000, 'Expected a page number of 0 or more'), '0'),
  pageSize: v.optional(wholeNumber(1, MAX_PAGE_SIZE, `Expected a page size from 1 to ${MAX_PAGE_SIZE}`), String(DEFAULT_PAGE_SIZE)),
});
export type PageQuery = v.InferOutput<typeof PageQuerySchema>;

/** The words of a cursor the list cannot read (a hand-edited or damaged link). */
export const CURSOR_MESSAGE = 'Expected a cursor from one of this list’s Next or Previous links';
/** A list position as its links carry it: the sort key of a row, opaque to the client (base64url). */
/** What a cursor looks like in an address (its JSON, base64url). */
export const CURSOR_TEXT = /^[A-Za-z0-9_-]{1,500}$/;
const cursorText = v.optional(v.pipe(v.string(), v.regex(CURSOR_TEXT, CURSOR_MESSAGE)));

/**
 * `?page=&pageSize=&next=|previous=` of a list that grows with the years (door events, orders, the
 * trail…): `next` is an answer's `next` (its Next link: the rows after its last), `previous` its
 * `previous` (its Previous link: the rows before its first); `page` then only numbers the page.
 * Without a cursor a page is read by its number (an old link). Spread into the list's own query object.
 */
export const CURSOR_PAGE_ENTRIES = { ...PageQuerySchema.entries, next: cursorText, previous: cursorText };
export type CursorPageQuery = PageQuery & { next?: string; previous?: string };

/**
 * The envelope of every paged list response. `total` is how many there are; with `totalIsLowerBound`
 * there are at least that many: a list that matches a great many stops counting past its page
 * ("1,000+"). A list paged by cursor gives its `next` and `previous` pages' cursors (none at an end).
 */
export const pageOf = <TItem extends v.GenericSchema>(item: TItem) =>
  v.object({
    items: v.array(item),
    page: v.number(),
    pageSize: v.number(),
    total: v.number(),
    totalIsLowerBound: v.optional(v.boolean()),
    next: v.optional(v.string()),
    previous: v.optional(v.string()),
  });
export type Page<T> = { items: T[]; page: number; pageSize: number; total: number; totalIsLowerBound?: boolean; next?: string; previous?: string };

/**
 * `?src=` of a picture endpoint (`GET /api/samples/images`, `GET /api/rest/pictures`): the picture's
 * address at its host. Whether it is one the endpoint fetches (its allowlist) is the endpoint's 400.
 */
export const PictureQuerySchema = v.object({
  src: v.pipe(v.string('Expected src, the picture’s address'), v.maxLength(500, 'A picture address is at most 500 characters'), v.url('Expected src to be an address')),
});
