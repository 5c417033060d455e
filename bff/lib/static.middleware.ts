import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { authApi, type SessionUser } from '../contracts/auth.contract';
import { LRUCache } from 'lru-cache';
import { urlOf } from '../contracts/endpoint.contract';
import { firstReads } from '../../pages/first-reads';
import { matchPage, mayOpen } from '../../pages/pages';
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
 * The first reads of the page at `pathname`, from its route's own declaration (pages/first-reads.ts),
 * as URLs in the order the page asks them: none when the session may not open the page, and only
 * those its role may make (a preload that fails is an error in the console).
 */
function firstReadsOf(pathname: string, search: URLSearchParams, user: SessionUser | undefined): string[] {
  const found = matchPage(pathname);
  const declare = found && firstReads[found.name];
  if (!declare || !mayOpen(found.page, user?.role ?? 'visitor')) return [];
  let reads;
  try {
    reads = declare({ params: found.params, search });
  } catch {
    return []; // an address the page cannot have (a malformed id): its route shows the not-found screen
  }
  return Object.values(reads)
    .filter((read) => read !== undefined && mayRead(read.endpoint.access, user))
    .map((read) => urlOf(read!.endpoint, read!.input as Parameters<typeof urlOf>[1]));
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
};

export function spaMiddleware(staticDir: string, { userForToken }: SpaOptions = {}) {
  const root = path.resolve(staticDir);
  const indexFile = indexFileOf(staticDir);
  const router = Router();
  // The build read again when it changed (a new build under a running server); each page's HTML made
  // once per build and per set of first reads (the reads differ by role and by address), the most asked kept.
  let built: { stamp: number; index: string; firstLoad: FirstLoad | undefined; pages: LRUCache<string, string> } | undefined;
  const htmlFor = (pattern: string, reads: string[]) => {
    const stamp = fs.statSync(indexFile).mtimeMs;
    if (built?.stamp !== stamp) built = { stamp, index: fs.readFileSync(indexFile, 'utf8'), firstLoad: readFirstLoad(root), pages: new LRUCache({ max: 500 }) };
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

  // Who is signed in, for the page's first reads (files above never ask). A lookup that fails (the database
  // away) leaves the page to load as a visitor's: the page itself needs no database, and its own reads then
  // answer 503 with Retry-After, which it sits out (decision 0072), where this would answer JSON to a browser.
  if (userForToken) {
    const lookup: typeof userForToken = (token) => {
      try {
        const user = userForToken(token);
        return user instanceof Promise ? user.catch(() => undefined) : user;
      } catch {
        return undefined;
      }
    };
    router.use(sessionMiddleware(lookup));
  }

  router.use(async (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !fs.existsSync(indexFile)) return next();
    // A missing hashed asset is a real 404 (the app's problem, `notFound`): answering HTML would hide a stale deploy.
    // By the path as the browser would resolve it: `/assets/../x` is the page `/x`.
    if (path.posix.normalize(req.path).startsWith('/assets/')) return next();
    res.setHeader('Cache-Control', NEVER_CACHE);
    const found = matchPage(req.path);
    if (found !== undefined) {
      const { searchParams } = new URL(req.originalUrl, 'http://page');
      const html = htmlFor(found.page.path, firstReadsOf(req.path, searchParams, req.user));
      // The head differs by who is signed in; Express gives the answer an ETag: a revisit revalidates it into a 304.
      res.vary('Cookie');
      return res.type('html').send(html);
    }
    // Without validators a revisit cannot turn the 404 into a 304.
    res.status(404).sendFile(indexFile, { etag: false, lastModified: false });
  });

  return router;
}
