import type { RouteObject } from 'react-router';

/** A leaf of the route table: its path pattern (`/gymowners/:id`; `/*` for the catch-all) and the routes from the root down to it. */
export type RouteLeaf = { pattern: string; chain: RouteObject[] };

function join(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}

/**
 * Every leaf of the route table (an index route stands at its parent's path), in the table's order.
 * Walking it runs none of the screens: they load lazily. The pages test checks the leaves against
 * the pages contract, and the browser tests open each one.
 */
export function routeLeaves(list: RouteObject[], parent = '', chain: RouteObject[] = []): RouteLeaf[] {
  return list.flatMap((route) => {
    const pattern = route.index || route.path === undefined ? parent : join(parent, route.path);
    const routes = [...chain, route];
    if (route.children?.length) return routeLeaves(route.children, pattern, routes);
    return [{ pattern: pattern || '/', chain: routes }];
  });
}

/** The catch-all's pattern: the not-found screen, not a page. */
export const CATCH_ALL = '/*';
