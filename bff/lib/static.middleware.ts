import fs from 'node:fs';
import path from 'node:path';
import { Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

const IMMUTABLE = 'public, max-age=31536000, immutable';
const NEVER_CACHE = 'no-cache';

/**
 * Serves the built SPA: hashed assets pre-compressed (brotli, gzip) with immutable caching, and
 * index.html, never cached, for every other GET that is not a file (history fallback).
 */
export function spaMiddleware(staticDir: string) {
  const root = path.resolve(staticDir);
  const indexFile = path.join(root, 'index.html');
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
    res.sendFile(indexFile);
  });

  return router;
}
