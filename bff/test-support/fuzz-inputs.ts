import zlib from 'node:zlib';
import fc from 'fast-check';
import type * as v from 'valibot';
import type { Endpoint, HttpMethod } from '../contracts/endpoint.contract';

/**
 * fast-check arbitraries for the endpoint fuzz (`bff/endpoints.fuzz.test.ts`), derived from each
 * endpoint's valibot schemas: values that look right (so requests reach the handlers) mixed with
 * wrong types, bounds ± 1, odd text and junk, and the ways a request can be malformed on the wire —
 * its path, query string, body, encodings and headers.
 */

/**
 * What the generators read of a valibot schema. valibot's schemas are plain objects whose `type`
 * names the kind and whose other fields (entries, wrapped, item, options, pipe…) are public; the
 * generic schema type does not expose them, hence the cast in {@link nodeOf}.
 */
interface SchemaNode {
  kind: string;
  type: string;
  pipe?: readonly SchemaNode[];
  entries?: Readonly<Record<string, SchemaNode>>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: readonly unknown[];
  literal?: unknown;
  value?: SchemaNode;
  requirement?: unknown;
}
const nodeOf = (schema: v.GenericSchema | SchemaNode): SchemaNode => schema as unknown as SchemaNode;
const actionsOf = (node: SchemaNode) => node.pipe?.slice(1) ?? [];
const requirementOf = (node: SchemaNode, type: string) => actionsOf(node).find((action) => action.type === type)?.requirement;
const hasAction = (node: SchemaNode, type: string) => actionsOf(node).some((action) => action.type === type);
const isSchema = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && (value as SchemaNode).kind === 'schema';

/** Values worth trying for a field of this name (ids of the fixtures, an order's token, emails Kisi knows, picture addresses). */
export type Hints = Readonly<Record<string, readonly string[]>>;

/**
 * `tidy`: values as a careful client sends them (so requests get past validation to the handlers);
 * `wild`: plausible values mixed with their edges, other types and junk.
 */
type Style = 'tidy' | 'wild';

/** A JSON object key left out. */
const MISSING = Symbol('missing');
type Maybe = unknown | typeof MISSING;

// ---- text ---------------------------------------------------------------------------------------

/** Text that breaks things elsewhere: control characters, NUL, lone surrogates, bidi overrides, markup, SQL. */
const ODD_TEXT = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  '\u0007\u001b[31m',
  '\ud800',
  'x\udfffy',
  '\u202eevil\u202c',
  '\ufeff',
  'ﬀ①²Ⅻ',
  '😀👩‍👩‍👧‍👦🏳️‍🌈',
  'Zalgo: Z̸̡̛a̷̖͑l̵͙̿g̴̗̃o̵̠̍',
  '<script>alert(1)</script>',
  "'; drop table accounts; --",
  '%s%n%x',
  '../../etc/passwd',
  'null',
  'undefined',
  'NaN',
  'true',
  '[]',
  '{}',
  '__proto__',
] as const;
const oddText = fc.constantFrom(...ODD_TEXT);
const anyText = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 30 }));
const longText = (length: number) => fc.constantFrom('x', 'é', '😀', ' ').map((unit) => unit.repeat(length));

/** What a path or query value may be instead of what it should be. */
const TEXT_JUNK = ['0', '-1', '1.5', '1e3', ' 1', '1 ', '+1', '0x1f', '01', '2147483648', '9007199254740993', '99999999999999999999', 'Infinity', 'NaN', 'true', 'null', '[]', '%', '%ZZ'] as const;
const textJunk = fc.oneof(fc.constantFrom(...TEXT_JUNK), oddText, anyText, longText(1_500));

/** `fc.stringMatching` knows no lookahead: drop lookaheads (the value then only looks right, which is also worth sending). */
function matching(pattern: RegExp): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern.source.replace(/\(\?[=!][^)]*\)/g, ''), pattern.flags));
  } catch {
    return anyText;
  }
}

const isoTimestamp = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());

/** Email addresses valibot's `email()` takes (fast-check's own are RFC-valid but mostly beyond it). */
const simpleEmail = fc.stringMatching(/^[a-z][a-z0-9.+-]{0,12}[a-z0-9]@[a-z]{2,10}\.[a-z]{2,4}$/);

/** Text a string schema would accept (or nearly: its pipe's checks are read, transforms and custom checks are not). */
function plausibleString(node: SchemaNode, hints: Hints, name: string, style: Style): fc.Arbitrary<string> {
  const max = requirementOf(node, 'max_length') as number | undefined;
  const regex = requirementOf(node, 'regex') as RegExp | undefined;
  const choices: fc.Arbitrary<string>[] = [];
  // Digits read as a number between bounds (a page, a page size, an id): mostly small ones, which exist.
  const minValue = requirementOf(node, 'min_value') as number | undefined;
  const maxValue = requirementOf(node, 'max_value') as number | undefined;
  if (minValue !== undefined || maxValue !== undefined) {
    const lo = minValue ?? 1;
    const hi = maxValue ?? lo + 1_000;
    choices.push(fc.integer({ min: lo, max: Math.min(hi, lo + 12) }).map(String), fc.integer({ min: lo, max: hi }).map(String));
  }
  if (regex) choices.push(matching(regex));
  if (hasAction(node, 'email')) choices.push(style === 'tidy' ? simpleEmail : fc.emailAddress());
  if (hasAction(node, 'url')) choices.push(fc.webUrl({ withQueryParameters: true }));
  if (hasAction(node, 'iso_timestamp')) choices.push(isoTimestamp);
  const length = Math.min(max ?? 40, 60);
  if (choices.length === 0) choices.push(fc.string({ minLength: 1, maxLength: length }), fc.string({ unit: 'grapheme', minLength: 1, maxLength: length }));
  const weighted = choices.map((arbitrary) => ({ weight: 3, arbitrary }));
  // The longest text allowed, and one character more.
  if (max !== undefined && style === 'wild') weighted.push({ weight: 1, arbitrary: longText(max) }, { weight: 1, arbitrary: longText(max + 1) });
  const hinted = hints[name];
  if (hinted?.length) weighted.push({ weight: 4, arbitrary: fc.constantFrom(...hinted) });
  return fc.oneof(...weighted);
}

/** A value for a part of the URL (a path parameter, a query value) as its schema reads it: plausible (tidy), or now and then junk (wild). */
function textFor(schema: v.GenericSchema | SchemaNode, hints: Hints, name: string, style: Style): fc.Arbitrary<string> {
  const node = nodeOf(schema);
  let plausible: fc.Arbitrary<string>;
  switch (node.type) {
    case 'optional':
    case 'nullable':
    case 'nullish':
      return textFor(node.wrapped!, hints, name, style);
    case 'picklist':
      plausible = fc.constantFrom(...(node.options as string[]));
      break;
    case 'literal':
      plausible = fc.constant(String(node.literal));
      break;
    case 'union':
      plausible = fc.oneof(...(node.options as SchemaNode[]).map((option) => textFor(option, hints, name, style)));
      break;
    case 'string':
      plausible = plausibleString(node, hints, name, style);
      break;
    default:
      plausible = anyText;
  }
  return style === 'tidy' ? plausible : fc.oneof({ weight: 3, arbitrary: plausible }, { weight: 2, arbitrary: textJunk });
}

// ---- JSON values --------------------------------------------------------------------------------

/** Any small JSON value: what a field holds when the sender got its type wrong. */
const jsonJunk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(-1, 0, -0, 0.5, 1.5, 2 ** 31, 2 ** 53 + 2, 1e308, -1e308, 5e-324),
  oddText,
  anyText,
  longText(20_000),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.integer(), fc.string({ maxLength: 5 })), { maxKeys: 3 }),
  fc.constant({ ['__proto__']: { admin: true } }),
  fc.integer({ min: 5, max: 40 }).map((depth) => nest(depth)),
);

/** `depth` objects and arrays inside each other. */
function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

function plausibleNumber(node: SchemaNode, hints: Hints, name: string, style: Style): fc.Arbitrary<number> {
  const min = (requirementOf(node, 'min_value') as number | undefined) ?? -1_000_000;
  const max = (requirementOf(node, 'max_value') as number | undefined) ?? 1_000_000;
  const whole = hasAction(node, 'integer');
  const hinted = (hints[name] ?? []).map(Number).filter((n) => Number.isFinite(n));
  const inRange = whole ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
  const near = whole ? fc.integer({ min, max: Math.min(max, min + 6) }) : fc.constantFrom(min, max);
  const edges = fc.constantFrom(min - 1, max + 1, min + 0.5, -min, max * 2);
  return fc.oneof(
    ...(hinted.length ? [{ weight: 3, arbitrary: fc.constantFrom(...hinted) }] : []),
    { weight: 3, arbitrary: near },
    { weight: 2, arbitrary: inRange },
    ...(style === 'wild' ? [{ weight: 1, arbitrary: edges }] : []),
  );
}

function objectValue(node: SchemaNode, hints: Hints, depth: number, style: Style): fc.Arbitrary<unknown> {
  const fields = Object.entries(node.entries ?? {}).map(([key, entry]) => {
    const optional = ['optional', 'nullish', 'exact_optional'].includes(entry.type);
    const value = jsonFor(entry, hints, style, key, depth + 1) as fc.Arbitrary<Maybe>;
    // An optional field half the time; a required one left out now and then (never when tidy).
    const present = optional
      ? fc.oneof(fc.constant<Maybe>(MISSING), value)
      : style === 'tidy'
        ? value
        : fc.oneof({ weight: 12, arbitrary: value }, { weight: 1, arbitrary: fc.constant<Maybe>(MISSING) });
    return present.map((entryValue) => [key, entryValue] as const);
  });
  const extra = fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'id', 'role', 'admin')), jsonJunk), { maxLength: 3 });
  const extras = style === 'tidy' ? fc.constant<Array<readonly [string, unknown]>>([]) : fc.oneof({ weight: 6, arbitrary: fc.constant<Array<readonly [string, unknown]>>([]) }, { weight: 1, arbitrary: extra });
  return fc.tuple(fc.tuple(...fields), extras).map(([present, extra]) => {
    const object: Record<string, unknown> = {};
    for (const [key, value] of [...present, ...extra]) if (value !== MISSING) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    return object;
  });
}

/** A value for a JSON body field: what the schema wants (tidy), or that with its edges, another type or junk (wild). */
function jsonFor(schema: v.GenericSchema | SchemaNode, hints: Hints, style: Style, name = '', depth = 0): fc.Arbitrary<unknown> {
  const node = nodeOf(schema);
  if (depth > 8) return jsonJunk;
  let plausible: fc.Arbitrary<unknown>;
  switch (node.type) {
    case 'object':
    case 'loose_object':
    case 'strict_object':
      plausible = objectValue(node, hints, depth, style);
      break;
    case 'optional':
    case 'exact_optional':
    case 'nullish':
      return jsonFor(node.wrapped!, hints, style, name, depth);
    case 'nullable':
      return fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 4, arbitrary: jsonFor(node.wrapped!, hints, style, name, depth) });
    case 'array': {
      const max = requirementOf(node, 'max_length') as number | undefined;
      const min = (requirementOf(node, 'min_length') as number | undefined) ?? 0;
      const item = jsonFor(node.item!, hints, style, name, depth + 1);
      const some = fc.array(item, { minLength: style === 'tidy' ? min : 0, maxLength: Math.max(min, Math.min(max ?? 4, 4)) });
      // One more than allowed (or a long list where nothing says how long).
      const tooMany = max === undefined ? fc.array(item, { minLength: 40, maxLength: 40 }) : fc.array(item, { minLength: max + 1, maxLength: max + 1 });
      plausible = style === 'tidy' ? some : fc.oneof({ weight: 6, arbitrary: some }, { weight: 1, arbitrary: tooMany });
      break;
    }
    case 'union':
    case 'variant':
      plausible = fc.oneof(...(node.options as SchemaNode[]).filter(isSchema).map((option) => jsonFor(option, hints, style, name, depth)));
      break;
    case 'picklist': {
      const options = fc.constantFrom(...(node.options as string[]));
      plausible = style === 'tidy' ? options : fc.oneof(options, options.map((option) => option.toUpperCase()));
      break;
    }
    case 'literal':
      plausible = fc.constant(node.literal);
      break;
    case 'string':
      plausible = style === 'tidy' ? plausibleString(node, hints, name, style) : fc.oneof({ weight: 4, arbitrary: plausibleString(node, hints, name, style) }, { weight: 1, arbitrary: oddText.map((odd) => `Name ${odd}`) });
      break;
    case 'number':
      plausible = plausibleNumber(node, hints, name, style);
      break;
    case 'boolean':
      plausible = fc.boolean();
      break;
    case 'record':
      plausible = fc.dictionary(fc.string({ maxLength: 10 }), jsonFor(node.value!, hints, style, name, depth + 1), { maxKeys: 3 });
      break;
    case 'null':
      plausible = fc.constant(null);
      break;
    default:
      plausible = jsonJunk;
  }
  return style === 'tidy' ? plausible : fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: jsonJunk });
}

// ---- a whole request ----------------------------------------------------------------------------

/** A body as sent: JSON of a value, nothing, or bytes with whatever type and encoding headers. */
export type BodySpec =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; label: string; bytes: Buffer; contentType?: string; contentEncoding?: string };

export interface FuzzRequest {
  /** The endpoint's method, now and then another (which the path may not answer to). */
  method: HttpMethod;
  /** Path parameter values, and whether they go into the path as they are (not percent-encoded). */
  params: Record<string, string>;
  rawParams: boolean;
  /** The query string without `?` ('' for none). */
  query: string;
  /** Whether the query string was built from plain values (its parsed form can be checked against the schema). */
  plainQuery: boolean;
  body: BodySpec;
  headers: Record<string, string>;
  /** Whether anything but the values is odd (transport, headers): only then is the answer held to the schema's verdict. */
  plainTransport: boolean;
}

/** Path values that must reach the router exactly as they are. */
const RAW_PATH_JUNK = ['%ZZ', '%', '%E0%A4%A', '%00', '%2F', '..', '.', '%2e%2e', '1%20', '%F0%9F%98%80', '1;x=2', '1,2'] as const;

function paramsFor(endpoint: Endpoint, hints: Hints, style: Style): fc.Arbitrary<{ params: Record<string, string>; raw: boolean }> {
  const entries = Object.entries(nodeOf(endpoint.params ?? ({ kind: 'schema', type: 'object', entries: {} } as SchemaNode)).entries ?? {});
  if (entries.length === 0) return fc.constant({ params: {}, raw: false });
  const plain = fc.tuple(...entries.map(([name, schema]) => textFor(schema, hints, name, style).map((value) => [name, value] as const))).map((pairs) => ({ params: Object.fromEntries(pairs), raw: false }));
  const raw = fc.tuple(...entries.map(([name]) => fc.constantFrom(...RAW_PATH_JUNK).map((value) => [name, value] as const))).map((pairs) => ({ params: Object.fromEntries(pairs), raw: true }));
  return style === 'tidy' ? plain : fc.oneof({ weight: 8, arbitrary: plain }, { weight: 1, arbitrary: raw });
}

/** Query-string pieces no schema asks for: stray `%`, brackets, empty names, prototype keys. */
const QUERY_JUNK = ['%', '%ZZ=1', 'a[b]=', 'a[b][c]=1', '=', '&', '==', 'x', '__proto__=1', 'constructor[prototype][admin]=1', 'page[]=1', `pad=${'x'.repeat(2_000)}`] as const;

function queryFor(endpoint: Endpoint, hints: Hints, style: Style): fc.Arbitrary<{ query: string; plain: boolean }> {
  const entries = Object.entries(endpoint.query ? (nodeOf(endpoint.query).entries ?? {}) : {});
  const enc = (text: string) => {
    try {
      return encodeURIComponent(text);
    } catch {
      return text; // a lone surrogate: sent as it is
    }
  };
  const field = ([name, schema]: readonly [string, SchemaNode]) => {
    const required = !['optional', 'nullish', 'exact_optional'].includes(schema.type);
    const absent = fc.constant({ text: '', plain: true });
    const one = textFor(schema, hints, name, style).map((value) => ({ text: `${name}=${enc(value)}`, plain: true }));
    if (style === 'tidy') return required ? one : fc.oneof(absent, one);
    return fc.oneof(
      { weight: 3, arbitrary: absent },
      { weight: 6, arbitrary: one },
      { weight: 1, arbitrary: fc.tuple(textFor(schema, hints, name, style), textFor(schema, hints, name, style)).map(([a, b]) => ({ text: `${name}=${enc(a)}&${name}=${enc(b)}`, plain: true })) },
      { weight: 1, arbitrary: fc.constantFrom(`${name}[x]=1`, `${name}[]=1`, name, `${name}=`, `${name}=%`, `${name}=%ZZ`).map((text) => ({ text, plain: false })) },
    );
  };
  const none = fc.constant<string[]>([]);
  const junk = style === 'tidy' ? none : fc.oneof({ weight: 5, arbitrary: none }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...QUERY_JUNK), { minLength: 1, maxLength: 3 }) });
  return fc.tuple(fc.tuple(...entries.map(field)), junk).map(([fields, extra]) => ({
    query: [...fields.map((f) => f.text), ...extra].filter(Boolean).join('&'),
    plain: fields.every((f) => f.plain) && extra.length === 0,
  }));
}

const MULTIPART_BOUNDARY = 'fuzzboundary7MA4YWxkTrZu0gW';
const multipart = (fields: Record<string, string>) =>
  Buffer.from(
    Object.entries(fields)
      .map(([name, value]) => `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${MULTIPART_BOUNDARY}--\r\n`,
  );

const raw = (label: string, bytes: Buffer | string, contentType?: string, contentEncoding?: string): BodySpec => ({
  kind: 'raw',
  label,
  bytes: Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes),
  contentType,
  contentEncoding,
});
const JSON_TYPE = 'application/json';

/** Malformed bodies that do not depend on the endpoint (made once: the gzip bomb takes a moment). */
const FIXED_MALFORMED: readonly BodySpec[] = [
  raw('single-quoted JSON', `{'name': 'x'}`, JSON_TYPE),
  raw('trailing comma', '{"name":"x",}', JSON_TYPE),
  raw('empty JSON body', '', JSON_TYPE),
  raw('JSON null', 'null', JSON_TYPE),
  raw('JSON text', '"text"', JSON_TYPE),
  raw('JSON number', '1e999999', JSON_TYPE),
  raw('JSON array', '[1,2,3]', JSON_TYPE),
  raw('over 100 kB', `{"name":"${'x'.repeat(110_000)}"}`, JSON_TYPE),
  raw('nested 100 deep', `${'['.repeat(100)}${']'.repeat(100)}`, JSON_TYPE),
  raw('nested 65 deep in an object', `{"a":${'{"a":'.repeat(64)}1${'}'.repeat(64)}}`, JSON_TYPE),
  raw('form-urlencoded', 'name=x&email=a%40b.c&body=hello', 'application/x-www-form-urlencoded'),
  raw('multipart', multipart({ name: 'x', email: 'a@b.c', body: 'hello' }), `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`),
  raw('multipart without boundary', 'name=x', 'multipart/form-data'),
  raw('XML', '<name>x</name>', 'application/xml'),
  raw('gzip bomb past 100 kB', zlib.gzipSync(`{"name":"${' '.repeat(2_000_000)}"}`), JSON_TYPE, 'gzip'),
  raw('invalid UTF-8', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from('"}')]), JSON_TYPE),
  raw('escaped NUL', '{"name":"a\\u0000b","body":"\\u0000","email":"a\\u0000@b.c"}', JSON_TYPE),
  raw('escaped lone surrogate', '{"name":"\\ud800","body":"\\udfff x"}', JSON_TYPE),
  raw('duplicate keys', '{"name":"a","name":{"x":1}}', JSON_TYPE),
];

/** Bodies that are wrong on the wire rather than in their values: `jsonText` (a generated body) broken, mislabelled or misencoded, or one of the fixed ones. */
function malformedBodies(jsonText: string): fc.Arbitrary<BodySpec> {
  const json = JSON_TYPE;
  return fc.constantFrom<BodySpec>(
    ...FIXED_MALFORMED,
    raw('truncated JSON', jsonText.slice(0, Math.max(1, jsonText.length - 1)), json),
    raw('JSON then garbage', `${jsonText}xyz`, json),
    raw('BOM before JSON', `\ufeff${jsonText}`, json),
    raw('text/plain', jsonText, 'text/plain'),
    raw('no content type', jsonText),
    raw('+json type', jsonText, 'application/merge-patch+json'),
    raw('UTF-16 charset', jsonText, 'application/json; charset=utf-16'),
    raw('Latin-1 charset', jsonText, 'application/json; charset=iso-8859-1'),
    raw('unknown charset', jsonText, 'application/json; charset=klingon'),
    raw('gzip of JSON', zlib.gzipSync(jsonText), json, 'gzip'),
    raw('deflate of JSON', zlib.deflateSync(jsonText), json, 'deflate'),
    raw('gzip header, plain bytes', jsonText, json, 'gzip'),
    raw('br header, plain bytes', jsonText, json, 'br'),
    raw('deflate header, plain bytes', jsonText, json, 'deflate'),
    raw('unknown encoding', jsonText, json, 'compress'),
    raw('two encodings', zlib.gzipSync(jsonText), json, 'gzip, gzip'),
    raw('identity encoding', jsonText, json, 'identity'),
  );
}

function bodyFor(endpoint: Endpoint, hints: Hints, style: Style): fc.Arbitrary<{ body: BodySpec; plain: boolean }> {
  const noBody = fc.constant<unknown>(MISSING);
  const schema = endpoint.body ?? endpoint.rawBody;
  const value = schema ? jsonFor(schema, hints, style) : style === 'tidy' ? noBody : fc.oneof({ weight: 3, arbitrary: noBody }, { weight: 1, arbitrary: jsonJunk });
  const json = value.map((v): { body: BodySpec; plain: boolean } => ({ body: v === MISSING ? { kind: 'none' } : { kind: 'json', value: v }, plain: true }));
  if (style === 'tidy') return json;
  const malformed = value.chain((v) => malformedBodies(v === MISSING ? '{}' : (JSON.stringify(v) ?? '{}')));
  return fc.oneof({ weight: 6, arbitrary: json }, { weight: 2, arbitrary: malformed.map((body) => ({ body, plain: false })) });
}

/**
 * Headers a client may get wrong; `plain` when none of them is odd. (Not `Expect:` other than
 * 100-continue, nor a head over 16 kB: Node answers those itself, before the app, with a bare 417 or 431.)
 */
function headersFor(style: Style): fc.Arbitrary<{ headers: Record<string, string>; plain: boolean }> {
  const odd = fc.oneof(
    fc.constantFrom<Record<string, string>>(
      { 'Idempotency-Key': 'short' },
      { 'Idempotency-Key': 'x'.repeat(101) },
      { 'Idempotency-Key': 'bad key with spaces' },
      { 'Idempotency-Key': '' },
      { Cookie: `sid=${'A'.repeat(200)}` },
      { Cookie: 'sid=%E0%A4%A; guest=%' },
      { Cookie: `junk=${'x'.repeat(6_000)}` },
      { Cookie: 'sid=; sid=; guest=' },
      { Origin: 'http://evil.example' },
      { Origin: 'null' },
      { 'Last-Event-ID': '-1' },
      { 'Last-Event-ID': '99999999999999999999' },
      { 'Last-Event-ID': 'abc' },
      { 'X-Signature': 'sha256=zz' },
      { Range: 'bytes=999999999-' },
      { Range: 'bytes=abc' },
      { Range: 'bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8,9-9' },
      { Accept: 'text/html' },
      { Accept: '*/*;q=abc' },
      { 'Accept-Encoding': 'gzip;q=2, br, zstd, ' + 'x,'.repeat(200) },
      { 'X-Forwarded-For': 'not an address, 999.1.1.1' },
      { 'X-HTTP-Method-Override': 'DELETE' },
      { 'Content-Language': '\u00ff' },
      { 'If-None-Match': '*' },
      { 'If-Modified-Since': 'yesterday' },
    ),
    fc.stringMatching(/^[A-Za-z0-9_-]{8,100}$/).map((key) => ({ 'Idempotency-Key': key })),
  );
  const none = fc.constant({ headers: {}, plain: true });
  if (style === 'tidy') return none;
  return fc.oneof({ weight: 5, arbitrary: none }, { weight: 2, arbitrary: odd.map((headers) => ({ headers, plain: 'Idempotency-Key' in headers && /^[A-Za-z0-9_-]{8,100}$/.test(headers['Idempotency-Key']!) })) });
}

/**
 * Node's HTTP parser refuses a request line and headers over 16 kB (`--max-http-header-size`) with a
 * bare 431 before the app sees them: requests are kept under it, so each one reaches the app.
 */
const MAX_HEAD_BYTES = 14_000;
const headBytes = (req: FuzzRequest) =>
  Object.values(req.params).reduce((sum, value) => sum + Buffer.byteLength(value) * 3, 0) + req.query.length + Object.entries(req.headers).reduce((sum, [name, value]) => sum + name.length + value.length, 0);

/**
 * One generated request for `endpoint` (its method, path params, query string, body and headers):
 * a third of them tidy, the rest wild.
 */
export function requestFor(endpoint: Endpoint, hints: Hints): fc.Arbitrary<FuzzRequest> {
  return fc.oneof({ weight: 1, arbitrary: styledRequest(endpoint, hints, 'tidy') }, { weight: 2, arbitrary: styledRequest(endpoint, hints, 'wild') });
}

function styledRequest(endpoint: Endpoint, hints: Hints, style: Style): fc.Arbitrary<FuzzRequest> {
  const otherMethods = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter((method) => method !== endpoint.method);
  const method = style === 'tidy' ? fc.constant(endpoint.method) : fc.oneof({ weight: 19, arbitrary: fc.constant(endpoint.method) }, { weight: 1, arbitrary: fc.constantFrom(...otherMethods) });
  return fc
    .record({ method, params: paramsFor(endpoint, hints, style), query: queryFor(endpoint, hints, style), body: bodyFor(endpoint, hints, style), headers: headersFor(style) })
    .map(({ method, params, query, body, headers }) => ({
      method,
      params: params.params,
      rawParams: params.raw,
      query: query.query,
      plainQuery: query.plain,
      body: body.body,
      headers: headers.headers,
      plainTransport: method === endpoint.method && body.plain && headers.plain,
    }))
    .filter((req) => headBytes(req) < MAX_HEAD_BYTES);
}
