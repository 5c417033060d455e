import type { RouteObject } from 'react-router';
import { firstReads } from '@pages/first-reads';
import { mayCall, pages, type PageName } from '@pages/pages';
import * as reads from '@/lib/reads';
import { queryOf } from '@/lib/route-reads';
import { routeLeaves } from './route-pages';
import { routes } from './router';

/**
 * The BFF names a page's first reads in its HTML from pages/first-reads.ts; the page's routes load
 * theirs from their own declarations. For every page, the reads its route chain asks for (a hover's
 * preload runs the same declarations as the loaders) must be the reads the HTML names: one more in
 * the HTML is a request nobody takes, one fewer a round trip the first visit waits for.
 */
const SAMPLE_PARAMS: Record<string, string> = { id: '7', stallId: '7', user_id: '7', postId: '7', conversationId: '7', idOrName: 'pikachu' };
const SAMPLE_IDS_BY_PATH: Record<string, string> = { '/pieces/:id': '10109-1', '/parts/:id': '3001' };

const fill = (pattern: string) => pattern.replace(/:([A-Za-z_]\w*)/g, (_, name: string) => SAMPLE_IDS_BY_PATH[pattern] ?? SAMPLE_PARAMS[name] ?? '7');
const keyText = (key: unknown) => JSON.stringify(key);

/** The page's sample path and its params, as the router would give them. */
function sampleAddress(pattern: string) {
  const path = fill(pattern);
  const params = Object.fromEntries([...pattern.matchAll(/:([A-Za-z_]\w*)/g)].map(([, name]) => [name!, decodeURIComponent(path.split('/')[pattern.split('/').indexOf(`:${name}`)]!)]));
  return { url: new URL(`http://desk.test${path}`), params };
}

type Handle = { preload?: (args: { params: Record<string, string>; url: URL }) => void };

async function keysTheRoutesAsk(chain: RouteObject[], params: Record<string, string>, url: URL): Promise<string[]> {
  const asked: string[] = [];
  const spy = jest.spyOn(reads, 'preloadRead').mockImplementation((read) => void asked.push(keyText(read.key)));
  try {
    for (const route of chain) {
      const module = typeof route.lazy === 'function' ? ((await route.lazy()) as { handle?: Handle }) : undefined;
      const handle = (route.handle ?? module?.handle) as Handle | undefined;
      handle?.preload?.({ params, url });
    }
  } finally {
    spy.mockRestore();
  }
  return [...new Set(asked)].sort();
}

describe("every page's first reads", () => {
  const leaves = routeLeaves(routes).filter((leaf) => leaf.pattern !== '/*');
  const names = Object.fromEntries(Object.entries(pages).map(([name, page]) => [page.path, name as PageName]));

  it.each(leaves.map((leaf) => [leaf.pattern, leaf] as const))('%s: the HTML names what its routes read', async (pattern, leaf) => {
    const { url, params } = sampleAddress(pattern);
    const declare = firstReads[names[pattern]!];
    const named = declare ? Object.values(declare({ params, search: url.searchParams })).flatMap((read) => (read ? [keyText(queryOf(read).key)] : [])) : [];
    expect(await keysTheRoutesAsk(leaf.chain, params, url)).toEqual([...new Set(named)].sort());
  });

  it.each(leaves.map((leaf) => [leaf.pattern] as const))("%s: everyone the page is for may make each of its first reads (no 403 in a page they may open)", (pattern) => {
    const page = pages[names[pattern]!];
    const declare = firstReads[names[pattern]!];
    const { url, params } = sampleAddress(pattern);
    const declared = declare ? Object.values(declare({ params, search: url.searchParams })).filter((read) => read !== undefined) : [];
    const refused = page.for.flatMap((who) =>
      declared
        .filter(({ endpoint: { access } }) => !mayCall(who, access))
        .map(({ endpoint }) => `${who}: ${endpoint.method} ${endpoint.path}`),
    );
    expect(refused).toEqual([]);
  });

  it('names reads for the pages that read data', () => {
    const reading = Object.keys(firstReads);
    expect(reading).toEqual(expect.arrayContaining(['home', 'gymMembers', 'gymMember', 'pieces', 'ptDinerMenu', 'ptRunner', 'chat']));
  });
});
