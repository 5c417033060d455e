import type { RequestHandler } from 'express';
import { HttpError } from './http-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF rule (docs/ARCHITECTURE.md "API conventions"): a state-changing request with a body must be JSON or multipart (no HTML
 * form can send those cross-site without CORS), and an Origin header, when present, must be ours.
 */
export const csrfGuard: RequestHandler = (req, _res, next) => {
  if (SAFE_METHODS.has(req.method)) return next();
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  // tus sends a file's bytes as application/offset+octet-stream, with its Tus-Resumable header (which no form can set).
  const tusBytes = req.headers['tus-resumable'] !== undefined && req.is('application/offset+octet-stream');
  if (hasBody && !tusBytes && !req.is(['application/json', 'application/*+json', 'multipart/form-data'])) {
    throw new HttpError(415, 'Send the request body as application/json or multipart/form-data.');
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `${req.protocol}://${req.get('host')}`) {
    throw new HttpError(403, 'Cross-origin requests are not allowed.');
  }
  next();
};
