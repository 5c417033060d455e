import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { authApi } from '../contracts/auth.contract';
import { pagePatternOf } from '../contracts/pages.contract';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NEVER_CACHE = 'no-cache';

/** The built client's entry page in `staticDir`. */
export const indexFileOf = (staticDir: string): string => path.join(path.resolve(staticDir), 'index.html');

/** What the build says each page fetches besides the entry (client/app/first-load.plugin.ts writes it). */
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

/**
 * index.html as the address asks it: the page's own scripts modulepreloaded, its styles linked and
 * the start-up reads preloaded, in the head, so the browser fetches them beside the entry instead
 * of after it has run. Without the build's table (or a head) the page is index.html as built.
 */
function pageHtml(index: string, firstLoad: FirstLoad | undefined, pattern: string): string {
  const at = index.indexOf('</head>');
  if (at < 0 || !firstLoad) return index;
  const own = firstLoad.pages[pattern] ?? { scripts: [], styles: [] };
  const link = (attributes: string, href: string) => `    <link ${attributes} href="${escapeAttribute(href)}">\n`;
  const tags = [
    ...EVERY_PAGE_READS.map((url) => link('rel="preload" as="fetch" crossorigin', url)),
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
export function spaMiddleware(staticDir: string) {
  const root = path.resolve(staticDir);
  const indexFile = indexFileOf(staticDir);
  const router = Router();
  // The build read again when it changed (a new build under a running server); each page's HTML made once per build.
  let built: { stamp: number; index: string; firstLoad: FirstLoad | undefined; pages: Map<string, string> } | undefined;
  const htmlFor = (pattern: string) => {
    const stamp = fs.statSync(indexFile).mtimeMs;
    if (built?.stamp !== stamp) built = { stamp, index: fs.readFileSync(indexFile, 'utf8'), firstLoad: readFirstLoad(root), pages: new Map() };
    let html = built.pages.get(pattern);
    if (html === undefined) built.pages.set(pattern, (html = pageHtml(built.index, built.firstLoad, pattern)));
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

  router.use((req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !fs.existsSync(indexFile)) return next();
    // A missing hashed asset is a real 404: answering HTML would hide a stale deploy.
    if (req.path.startsWith('/assets/')) return next();
    res.setHeader('Cache-Control', NEVER_CACHE);
    const pattern = pagePatternOf(req.path);
    // Express gives the answer an ETag: a revisit revalidates it into a 304.
    if (pattern !== undefined) return res.type('html').send(htmlFor(pattern));
    // Without validators a revisit cannot turn the 404 into a 304.
    res.status(404).sendFile(indexFile, { etag: false, lastModified: false });
  });

  return router;
}
