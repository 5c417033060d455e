import { matchRoutes } from 'react-router';
import { isPagePath, pages } from '@pages/pages';
import { paths } from '@/lib/paths';
import { CATCH_ALL, routeLeaves } from './route-pages';
import { routes } from './router';

/**
 * The page table (pages/pages.ts) is the one list of the app's pages: the BFF answers 404 for an address outside
 * it, so the route table must list exactly its patterns, and for any address the BFF's answer must be
 * what the router then shows (a page, or the not-found screen).
 */
const leaves = routeLeaves(routes).map((leaf) => leaf.pattern);
const patterns: string[] = Object.values(pages).map((page) => page.path);

/** What the router renders for a URL: true for a page, false for its not-found catch-all. */
function routerShowsPage(url: string): boolean {
  const matches = matchRoutes(routes, url);
  return !!matches && matches.at(-1)!.route.path !== '*';
}

const fill = (pattern: string, value: string) => pattern.replace(/:[A-Za-z_]\w*/g, value);

/** Every path the table could be asked about: each pattern and each of its prefixes, filled in. */
const samplePaths = [...new Set(patterns.flatMap((pattern) => pattern.split('/').map((_, i, segments) => segments.slice(0, i + 1).join('/') || '/')))].map((p) => fill(p, '7'));

/** Ways a browser may spell an address: slashes, case, percent-encoding, a segment too many or a param that is not one segment. */
const spellings = (path: string): string[] => [
  path,
  `${path}/`,
  `${path}//`,
  path.toUpperCase(),
  path.replace(/[a-z](?=[^a-z]*$)/, (c) => `%${c.charCodeAt(0).toString(16)}`),
  `${path}/extra`,
  `${path.replace(/\/$/, '')}/a%2Fb`,
  `/${path}`,
];

describe('the page table and the route table', () => {
  it('the route table lists exactly the pages of the page table, plus its catch-all', () => {
    expect(leaves.filter((p) => p !== CATCH_ALL).sort()).toEqual([...patterns].sort());
    expect(leaves.filter((p) => p === CATCH_ALL)).toHaveLength(1);
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('for every spelling of every path of the table, the BFF says page exactly when the router shows one', () => {
    const urls = [...samplePaths.flatMap(spellings), '/no/such/page', '/shell//api', '/%E0%A4%A', '/about%2Fx', '/pieces/', '/kisi/users/7/8', '/index'];
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {}); // React Router's word on the malformed %E0%A4%A
    const disagreements = urls.filter((url) => isPagePath(url) !== routerShowsPage(url)).map((url) => `${url}: router ${routerShowsPage(url) ? 'page' : 'not found'}`);
    warn.mockRestore();
    expect(disagreements).toEqual([]);
    expect(urls.length).toBeGreaterThan(400);
  });

  it('answers real pages and refuses the rest, as a user types them', () => {
    for (const url of ['/', '/about', '/ABOUT/', '/shell/nuhs/basic/', '/shell/nuhs/basic/12', '/abou%74', '/pieces/10270-1', '/shell/posts/1/deep']) {
      expect([url, isPagePath(url)]).toEqual([url, true]);
    }
    for (const url of ['/no/such/page', '/shell/upload', '/shell/gymowner', '/shell/posts/1/shallow', '/aboutx', '/assets/x.js']) {
      expect([url, isPagePath(url)]).toEqual([url, false]);
    }
  });

  it('every link of paths.ts lands on a page', () => {
    for (const [name, link] of Object.entries(paths)) {
      const url = typeof link === 'function' ? link('x y/1') : link;
      expect([name, isPagePath(url), routerShowsPage(url)]).toEqual([name, true, true]);
    }
  });
});
