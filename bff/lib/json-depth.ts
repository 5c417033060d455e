/** How deep a JSON body may nest: ours go a few levels, Kisi's too; far deeper is an attack or a bug. */
export const MAX_JSON_DEPTH = 64;
/** What a body nested deeper is answered (400), wherever it is read. */
export const TOO_DEEP_DETAIL = `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels of objects and arrays).`;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** The deepest nesting of objects and arrays in JSON text (brackets inside strings do not count), stopping past `max`. */
export function jsonDepth(bytes: Uint8Array, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) inString = true;
    else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > max) return deepest;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/**
 * `express.json`'s `verify`: refuses a body nested deeper than {@link MAX_JSON_DEPTH} before it is
 * parsed, so no endpoint (the Kisi proxy's writes included) ever parses, stores or forwards it.
 */
export function refuseDeepJson(_req: unknown, _res: unknown, body: Buffer): void {
  if (jsonDepth(body) > MAX_JSON_DEPTH) throw Object.assign(new Error('JSON nested too deeply'), { status: 400, type: 'entity.too.deep' });
}
