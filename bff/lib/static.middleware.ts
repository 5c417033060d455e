import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';
import { isPagePath } from '../contracts/pages.contract';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NEVER_CACHE = 'no-cache';

/** The built client's entry page in `staticDir`. */
export const indexFileOf = (staticDir: string): string => path.join(path.resolve(staticDir), 'index.html');

/**
 * Serves the built SPA: hashed assets pre-compressed (brotli, gzip) with immutable caching, and
 * index.html, never cached, for every other GET that is not a file (history fallback) — with 200
 * for a page of the app, and 404 for an address that is none (the app then shows its not-found
 * screen), as the pages contract says.
 */
export function spaMiddleware(staticDir: string) {
  const root = path.resolve(staticDir);
  const indexFile = indexFileOf(staticDir);
  const router = Router();

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
    if (isPagePath(req.path)) return res.sendFile(indexFile);
    // Without validators a revisit cannot turn the 404 into a 304.
    res.status(404).sendFile(indexFile, { etag: false, lastModified: false });
  });

  return router;
}
