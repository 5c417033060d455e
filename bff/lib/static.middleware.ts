import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { authApi, type SessionUser } from '../contracts/auth.contract';
import { urlOf, type Read } from '../contracts/endpoint.contract';
import { firstReads } from '../contracts/first-reads.contract';
import { pagePatternOf, pages, type PageName } from '../contracts/pages.contract';
import { sessionMiddleware } from './auth.middleware';
import { assertAccess } from './endpoint-router';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NEVER_CACHE = 'no-cache';

/** The built client's entry page in `staticDir`. */
export const indexFileOf = (staticDir: string): string => path.join(path.resolve(staticDir), 'index.html');

/** What the build says each page fetches besides the entry (build/first-load.plugin.ts writes it). */
type Assets = { scripts: string[]; styles: string[] };
type FirstLoad = { pages: Record<string, Assets> };
const FIRST_LOAD_FILE = 'first-load.json';

/**
 * The reads every page makes as it starts, whatever the page: who is signed in (the header's
 * menus and the pages behind a session ask it first). The browser starts them with the HTML; the
 * app's own request for the same URL then takes the answer (docs/decisions/0067).
 */
const EVERY_PAGE_READS = [authApi.session.path];

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

const pageNameOf = new Map(Object.entries(pages).map(([name, pattern]) => [pattern as string, name as PageName]));

/** Whether `user` may make the read: the same check the API makes, so a preload never fails (a failed one is a console error). */
function mayRead(access: Parameters<typeof assertAccess>[0], user: SessionUser | undefined): boolean {
  try {
    assertAccess(access, user);
    return true;
  } catch {
    return false;
  }
}

/**
 * The page's first reads (bff/contracts/first-reads.contract.ts) this request may make: those its
 * session's role may make, and those that need the bare address only when it is bare. As URLs, in
 * the order the page asks them.
 */
function firstReadsOf(pattern: string, user: SessionUser | undefined, bare: boolean): string[] {
  const name = pageNameOf.get(pattern);
  const reads = (name && firstReads[name]) || [];
  return reads
    .filter(({ read, at }) => (at === 'any address' || bare) && mayRead(read.endpoint.access, user))
    .map(({ read }) => urlOf(read.endpoint, read.input as Parameters<typeof urlOf>[1]));
}

/**
 * index.html as the address asks it: the page's own scripts modulepreloaded, its styles linked and
 * the start-up reads preloaded (who is signed in, then the page's first reads), in the head, so the
 * browser fetches them beside the entry instead of after it has run. Without the build's table (or a
 * head) the page is index.html as built.
 */
function pageHtml(index: string, firstLoad: FirstLoad | undefined, pattern: string, reads: string[]): string {
  const at = index.indexOf('</head>');
  if (at < 0 || !firstLoad) return index;
  const own = firstLoad.pages[pattern] ?? { scripts: [], styles: [] };
  const link = (attributes: string, href: string) => `    <link ${attributes} href="${escapeAttribute(href)}">\n`;
  const tags = [
    ...[...EVERY_PAGE_READS, ...reads].map((url) => link('rel="preload" as="fetch" crossorigin', url)),
    ...own.scripts.map((file) => link('rel="modulepreload" crossorigin', `/${file}`)),
    ...own.styles.map((file) => link('rel="stylesheet" crossorigin', `/${file}`)),
  ].join('');
  return index.slice(0, at) + tags + index.slice(at);
}

function readFirstLoad(root: string): FirstLoad | undefined {
  const file = path.join(root, FIRST_LOAD_FILE);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as FirstLoad) : undefined;
}

/**
 * Serves the built SPA: hashed assets pre-compressed (brotli, gzip) with immutable caching, and
 * index.html, never cached (revalidated by its ETag), for every other GET that is not a file
 * (history fallback) — with 200 for a page of the app, its own chunks and first reads preloaded
 * (`pageHtml`), and 404 for an address that is none (the app then shows its not-found screen), as
 * the pages contract says. The build's index.html and table are read at the first page asked, and again after a new build.
 */
export type SpaOptions = {
  /** Who a session token belongs to (the auth feature's own read): without it every page is answered as to a visitor. */
  userForToken?: (token: string) => SessionUser | undefined | Promise<SessionUser | undefined>;
  /**
   * A page's read that its data decides (the chat's thread: of the channel the address names, else
   * of the first channel the person may read), found by its feature for the session: preloaded after
   * the page's first reads. Undefined: none, or it cannot be known now (the page then asks as usual).
   */
  dataReads?: DataReads;
};

/** A feature's reads that depend on its data, by page (see `SpaOptions.dataReads`). */
export type DataReads = Partial<Record<PageName, (user: SessionUser, search: URLSearchParams) => Promise<Read | undefined>>>;

export function spaMiddleware(staticDir: string, { userForToken, dataReads = {} }: SpaOptions = {}) {
  const root = path.resolve(staticDir);
  const indexFile = indexFileOf(staticDir);
  const router = Router();
  // The build read again when it changed (a new build under a running server); each page's HTML made
  // once per build and per set of first reads (the reads differ by role and by a bare address).
  let built: { stamp: number; index: string; firstLoad: FirstLoad | undefined; pages: Map<string, string> } | undefined;
  const htmlFor = (pattern: string, reads: string[]) => {
    const stamp = fs.statSync(indexFile).mtimeMs;
    if (built?.stamp !== stamp) built = { stamp, index: fs.readFileSync(indexFile, 'utf8'), firstLoad: readFirstLoad(root), pages: new Map() };
    const key = [pattern, ...reads].join(' ');
    let html = built.pages.get(key);
    if (html === undefined) built.pages.set(key, (html = pageHtml(built.index, built.firstLoad, pattern, reads)));
    return html;
  };

  router.use(
    expressStaticGzip(root, {
      enableBrotli: true,
      orderPreference: ['br', 'gzip'],
      index: false,
      serveStatic: {
        index: false,
        redirect: false,
        setHeaders: (res, filePath) => {
          const isHashedAsset = filePath.startsWith(path.join(root, 'assets') + path.sep);
          res.setHeader('Cache-Control', isHashedAsset ? IMMUTABLE : NEVER_CACHE);
        },
      },
    }),
  );

  // Who is signed in, for the page's first reads (files above never ask).
  if (userForToken) router.use(sessionMiddleware(userForToken));

  /** The page's read its data decides, as a URL, when this session may make it; a read that fails is left to the page. */
  const dataReadOf = async (pattern: string, user: SessionUser | undefined, search: URLSearchParams): Promise<string[]> => {
    const find = dataReads[pageNameOf.get(pattern)!];
    if (!find || !user) return [];
    const found = await find(user, search).catch(() => undefined);
    return found && mayRead(found.endpoint.access, user) ? [urlOf(found.endpoint, found.input as Parameters<typeof urlOf>[1])] : [];
  };

  router.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !fs.existsSync(indexFile)) return next();
    // A missing hashed asset is a real 404: answering HTML would hide a stale deploy.
    if (req.path.startsWith('/assets/')) return next();
    res.setHeader('Cache-Control', NEVER_CACHE);
    const pattern = pagePatternOf(req.path);
    if (pattern !== undefined) {
      const bare = !req.originalUrl.includes('?');
      const { searchParams } = new URL(req.originalUrl, 'http://page');
      const html = htmlFor(pattern, [...firstReadsOf(pattern, req.user, bare), ...(await dataReadOf(pattern, req.user, searchParams))]);
      // The head differs by who is signed in; Express gives the answer an ETag: a revisit revalidates it into a 304.
      res.vary('Cookie');
      return res.type('html').send(html);
    }
    // Without validators a revisit cannot turn the 404 into a 304.
    res.status(404).sendFile(indexFile, { etag: false, lastModified: false });
  });

  return router;
}
