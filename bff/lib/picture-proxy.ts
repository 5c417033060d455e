import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Response } from 'express';
import { LRUCache } from 'lru-cache';
import * as v from 'valibot';
import { badRequest, HttpError, notFound } from './http-error';
import type { Logger } from './logger';
import { pictureFolder } from './picture-folder';
import { singleFlight } from './single-flight';
import type { UpstreamClient } from './upstream.client';

/**
 * The one picture proxy of the BFF (decision 0068): the browser never loads a picture from a
 * third party. A feature that shows pictures of a public service (the sample pages, the catalogue)
 * builds one with the folders the pictures may come from and the endpoint that serves them; its
 * answers give the browser our address for each picture (`imageUrl`), and the endpoint fetches it
 * once, checks its type and size, keeps it on disk (a folder pruned to a size, `picture-folder.ts`)
 * and serves it with a month's caching.
 */

/** The picture types passed on; never SVG or HTML, which could run script in our origin. */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
const PictureMetaSchema = v.object({ type: v.picklist(PICTURE_TYPES), size: v.number() });

/** A picture at an address never changes: browsers may keep it for a month without asking again. */
export const PICTURE_CACHE_CONTROL = 'public, max-age=2592000, immutable';
/**
 * What a picture that cannot be had now (its host away, silent, or answering something that is no
 * picture) is answered with: a neutral picture (the pages' own "image" icon, grey, in the middle of a
 * square), 200, so that a picture host's outage is never an error of ours (a balancer counts a 502
 * against the instance, decision 0098) and the page shows a quiet frame. Our own constant bytes, no
 * script and no reference to anything outside it; kept a minute, as long as the failure is remembered,
 * and then asked for again.
 */
export const PICTURE_PLACEHOLDER = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><path transform="translate(36 36)" d="M4 5h16v14H4z M4 16l5-5 4 4 2-2 5 5 M15 9h.01" fill="none" stroke="#8a94a0" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/></svg>',
);
export const PICTURE_PLACEHOLDER_TYPE = 'image/svg+xml';
export const PICTURE_PLACEHOLDER_CACHE_CONTROL = 'public, max-age=60';

/** The largest picture passed on (the providers' largest are a few hundred kB). */
const MAX_PICTURE_BYTES = 5 * 1024 * 1024;

const MAX_REDIRECTS = 3;
const resolve = (location: string, base: URL): URL | undefined => {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
};
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What may follow a location's folder: plain path characters, no `%`-escapes, no `..`. */
const PLAIN_PATH = /^[A-Za-z0-9._~/-]+$/;

/**
 * The picture locations a proxy fetches from, each an origin and a folder (never a whole host).
 * Nothing else is fetched: the endpoint is never an open proxy.
 */
export function pictureAllowlist(locations: readonly string[]) {
  const all = [...new Map(locations.map((location) => new URL(location)).map((url) => [url.href, url])).values()];
  // A folder inside another listed one adds nothing (the default sprites folder is inside PokeAPI's).
  const folders = all.filter((folder) => !all.some((other) => other !== folder && other.origin === folder.origin && folder.pathname.startsWith(other.pathname)));

  /** The address, normalised, when it names a file in one of the folders; else undefined. */
  const match = (address: string): URL | undefined => {
    let url: URL;
    try {
      url = new URL(address);
    } catch {
      return undefined;
    }
    if (url.username || url.password || url.search || url.hash) return undefined;
    return folders.some((folder) => {
      if (url.origin !== folder.origin || !url.pathname.startsWith(folder.pathname)) return false;
      const rest = url.pathname.slice(folder.pathname.length);
      return PLAIN_PATH.test(rest) && !rest.split('/').includes('..');
    })
      ? url
      : undefined;
  };

  return { match, describe: () => folders.map((folder) => `${folder.host}${folder.pathname}`).join(', ') };
}
export type PictureAllowlist = ReturnType<typeof pictureAllowlist>;

export interface PictureProxyOptions {
  /** Whose pictures these are, for the 400 ("the sample providers’ picture hosts"). */
  source: string;
  /** The folders pictures may come from (`https://cdn.rebrickable.com/media/sets/`). */
  locations: readonly string[];
  /** The path of the endpoint that serves them: our address for a picture is `<servedAt>?src=<its address>`. */
  servedAt: string;
  upstream: UpstreamClient;
  /** One file per picture (named by the SHA-256 of its address) and its description beside it. */
  directory: string;
  /** The folder is pruned to this size, least recently used pictures first. */
  maxFolderBytes: number;
  logger: Logger;
  /** For the log and the pruning job's name ("catalogue pictures"). */
  name: string;
  maxBytes?: number;
  /** How long a picture that could not be had is answered from memory (default a minute). */
  failureMemoryMs?: number;
}

export interface StoredPicture {
  /** Absolute path of the bytes. */
  path: string;
  type: (typeof PICTURE_TYPES)[number];
}

/** Says why a placeholder was answered, for whoever looks at the answer (curl, the browser's network panel). */
export const PICTURE_UNAVAILABLE_HEADER = 'X-Picture-Unavailable';

/** The placeholder as the answer (see {@link PICTURE_PLACEHOLDER}), `reason` in {@link PICTURE_UNAVAILABLE_HEADER}. */
function placeholder(res: Response, reason: string): void {
  res
    .status(200)
    .set({
      'Content-Type': PICTURE_PLACEHOLDER_TYPE,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': PICTURE_PLACEHOLDER_CACHE_CONTROL,
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
      // A header value is Latin-1: the few typographic characters of our words become plain ones.
      [PICTURE_UNAVAILABLE_HEADER]: reason.replace(/[’‘]/g, "'").replace(/[^\x20-\x7e]/g, '?'),
    })
    .send(PICTURE_PLACEHOLDER);
}

/** A feature's picture endpoint: a picture of the allowed folders, fetched once and kept on disk. */
export function pictureProxy({ source, locations, servedAt, upstream, directory, maxFolderBytes, logger, name, maxBytes = MAX_PICTURE_BYTES, failureMemoryMs = 60_000 }: PictureProxyOptions) {
  const allowlist = pictureAllowlist(locations);
  const root = path.resolve(directory);
  const folder = pictureFolder({ directory: root, maxBytes: maxFolderBytes, logger, name });
  const flights = singleFlight<StoredPicture>();
  // A page of a catalogue whose picture host is away asks for dozens of pictures, and asks again on
  // every page: each would wait for the host's time limit. What it answered is kept a while instead.
  const failures = new LRUCache<string, HttpError>({ max: 10_000, ttl: failureMemoryMs });
  const fileOf = (url: URL) => path.join(root, crypto.createHash('sha256').update(url.href).digest('hex'));

  async function stored(file: string): Promise<StoredPicture | undefined> {
    try {
      const [meta, described] = await Promise.all([fs.readFile(`${file}.json`, 'utf8'), fs.stat(`${file}.json`), fs.stat(file)]);
      const parsed = v.safeParse(PictureMetaSchema, JSON.parse(meta));
      if (!parsed.success) return undefined;
      await folder.used(`${file}.json`, described.mtimeMs);
      return { path: file, type: parsed.output.type };
    } catch {
      return undefined;
    }
  }

  /** Writes a file whole or not at all (several requests, or instances, may store the same picture). */
  async function writeWhole(file: string, data: string | Buffer) {
    const temporary = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    await fs.writeFile(temporary, data);
    await fs.rename(temporary, file);
  }

  async function download(url: URL, file: string): Promise<StoredPicture> {
    // One time limit for the whole fetch, redirects and body included.
    const signal = AbortSignal.timeout(upstream.timeoutMs);
    let current = url;
    for (let hops = 0; ; hops++) {
      const provider = `The picture host ${current.host}`;
      const res = await upstream.open(provider, current.href, { accept: PICTURE_TYPES.join(', '), redirect: 'manual', signal });
      if (REDIRECTS.has(res.status)) {
        await res.body?.cancel().catch(() => {});
        const location = res.headers.get('location');
        const target = location ? resolve(location, current) : undefined;
        const next = target ? allowlist.match(target.href) : undefined;
        if (!next) throw new HttpError(502, `${provider} sent the picture elsewhere (${target?.host || 'nowhere'}), which is not one of the picture hosts.`);
        if (hops >= MAX_REDIRECTS) throw new HttpError(502, `${provider} redirected more than ${MAX_REDIRECTS} times.`);
        current = next;
        continue;
      }
      if (res.status === 404 || res.status === 410) {
        await res.body?.cancel().catch(() => {});
        throw notFound('There is no picture at that address.');
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => {});
        throw new HttpError(502, `${provider} answered ${res.status}.`);
      }
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const known = PICTURE_TYPES.find((candidate) => candidate === type);
      if (!known) {
        await res.body?.cancel().catch(() => {});
        throw new HttpError(502, `${provider} answered ${type || 'no content type'}, not a PNG, JPEG, GIF or WebP picture.`);
      }
      const bytes = await upstream.readCapped(provider, res, maxBytes);
      await fs.mkdir(root, { recursive: true });
      await writeWhole(file, bytes);
      // The description last: a picture is stored once its description is there.
      const description = JSON.stringify({ type: known, size: bytes.length, src: url.href, fetchedAt: new Date().toISOString() });
      await writeWhole(`${file}.json`, description);
      folder.stored(bytes.length + Buffer.byteLength(description));
      return { path: file, type: known };
    }
  }

  /** The picture at `src` on disk (fetched first when it is not there yet); `src` off the allowlist is a 400. */
  async function picture(src: string): Promise<StoredPicture> {
    const url = allowlist.match(src);
    if (!url) throw badRequest(`Pictures come only from ${source}.`, [{ path: 'query.src', message: `Not a picture of ${allowlist.describe()}` }]);
    const file = fileOf(url);
    // The disk first: another instance sharing the folder may have stored it since it failed here.
    const onDisk = await stored(file);
    if (onDisk) return onDisk;
    const failed = failures.get(url.href);
    if (failed) throw failed;
    return flights(url.href, async () => {
      try {
        return (await stored(file)) ?? (await download(url, file));
      } catch (err) {
        if (err instanceof HttpError) {
          failures.set(url.href, err);
          // Once per picture while its failure is remembered: the answer itself is the placeholder, a 200.
          if (err.status >= 500) logger.warn({ src: url.href, status: err.status, reason: err.detail }, `${name}: a picture could not be had, answering the placeholder`);
        }
        throw err;
      }
    });
  }

  return {
    /** Our own address for a picture, or null when it has none or it is not on the allowlist (never a link that would fail). */
    imageUrl(address: string | null | undefined): string | null {
      const url = address ? allowlist.match(address) : undefined;
      return url ? `${servedAt}?src=${encodeURIComponent(url.href)}` : null;
    },
    picture,
    /**
     * Answers the picture at `src`: its bytes with its type, `nosniff` and a month's caching; the
     * placeholder when it cannot be had now (its host away or silent, or not answering a picture);
     * a 404 problem when its host says there is none, a 400 when `src` is not one of ours.
     */
    async send(src: string, res: Response): Promise<void> {
      let found: StoredPicture;
      try {
        found = await picture(src);
      } catch (err) {
        if (err instanceof HttpError && err.status >= 500) return placeholder(res, err.detail);
        throw err;
      }
      await new Promise<void>((done) =>
        res.sendFile(found.path, { headers: { 'Content-Type': found.type, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': PICTURE_CACHE_CONTROL } }, (err) => {
          // Sent, or the client went away mid-file.
          if (!err || res.headersSent) return done();
          // Pruned between the look and the read (rare: pruning takes the least recently used): the next request fetches it again.
          placeholder(res, 'The stored picture could not be read.');
          done();
        }),
      );
    },
    /** Prunes the folder now (the job does it every hour; storing a picture when the folder may be over its limit). */
    prune: folder.prune,
    /** The folder's pruning, every hour and at start: for the feature's `jobs`. */
    job: folder.job,
  };
}
export type PictureProxy = ReturnType<typeof pictureProxy>;
