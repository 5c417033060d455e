import type { Response } from 'express';

/**
 * The pattern a request matched (`/api/gym/users/:id`), named by whatever answers it: the endpoint
 * router, the Kisi proxy's allowlist, the tus endpoint. The metrics label requests with it, never
 * with the raw URL, so the number of label values stays that of the routes.
 */
export const nameRoute = (res: Response, pattern: string): void => {
  res.locals.routePattern = pattern;
};

export const routeNameOf = (res: Response): string | undefined => (typeof res.locals.routePattern === 'string' ? res.locals.routePattern : undefined);
