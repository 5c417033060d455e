import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import * as v from 'valibot';
import { samplesApi } from '../../contracts/samples.contract';
import { badRequest, HttpError, notFound } from '../../lib/http-error';
import { singleFlight } from '../../lib/single-flight';
import type { UpstreamClient } from './upstream.client';

/** Where the providers keep their pictures: PokeAPI's sprites repository and Rick and Morty's avatars. */
export const PROVIDER_PICTURE_LOCATIONS = ['https://raw.githubusercontent.com/PokeAPI/sprites/', 'https://rickandmortyapi.com/api/character/avatar/'] as const;

/** The picture types passed on; never SVG or HTML, which could run script in our origin. */
export const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
const PictureMetaSchema = v.object({ type: v.picklist(PICTURE_TYPES), size: v.number() });

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
 * The picture locations the image endpoint fetches from: the providers' own (above) and those of the
 * configured upstreams (a mirror or a local fake serves its own pictures), each an origin and a
 * folder. Nothing else is fetched: the endpoint is never an open proxy.
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

  return {
    match,
    /** Our own address for an upstream picture, or null when it is not on the allowlist (never a link that would fail). */
    imageUrl: (address: string | null | undefined): string | null => {
      const url = address ? match(address) : undefined;
      return url ? `${samplesApi.image.path}?src=${encodeURIComponent(url.href)}` : null;
    },
    describe: () => folders.map((folder) => `${folder.host}${folder.pathname}`).join(', '),
  };
}
export type PictureAllowlist = ReturnType<typeof pictureAllowlist>;

export interface SampleImagesDeps {
  upstream: UpstreamClient;
  allowlist: PictureAllowlist;
  /** SAMPLES_IMAGE_DIR: one file per picture (named by the SHA-256 of its address) and its type beside it. */
  directory: string;
  maxBytes?: number;
}

export interface StoredPicture {
  /** Absolute path of the bytes. */
  path: string;
  type: (typeof PICTURE_TYPES)[number];
}

/** `GET /api/samples/images?src=`: a provider's picture, fetched once and kept on disk. */
export function sampleImages({ upstream, allowlist, directory, maxBytes = 5 * 1024 * 1024 }: SampleImagesDeps) {
  const root = path.resolve(directory);
  const flights = singleFlight<StoredPicture>();
  const fileOf = (url: URL) => path.join(root, crypto.createHash('sha256').update(url.href).digest('hex'));

  async function stored(file: string): Promise<StoredPicture | undefined> {
    try {
      const [meta] = await Promise.all([fs.readFile(`${file}.json`, 'utf8'), fs.stat(file)]);
      const parsed = v.safeParse(PictureMetaSchema, JSON.parse(meta));
      return parsed.success ? { path: file, type: parsed.output.type } : undefined;
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
      // The type last: a picture is stored once its description is there.
      await writeWhole(`${file}.json`, JSON.stringify({ type: known, size: bytes.length, src: url.href, fetchedAt: new Date().toISOString() }));
      return { path: file, type: known };
    }
  }

  return {
    /** The picture at `src` on disk (fetched first when it is not there yet); `src` off the allowlist is a 400. */
    async picture(src: string): Promise<StoredPicture> {
      const url = allowlist.match(src);
      if (!url) throw badRequest('Pictures come only from the sample providers’ picture hosts.', [{ path: 'query.src', message: `Not a picture of ${allowlist.describe()}` }]);
      const file = fileOf(url);
      return (await stored(file)) ?? flights(url.href, async () => (await stored(file)) ?? download(url, file));
    },
  };
}
export type SampleImages = ReturnType<typeof sampleImages>;
