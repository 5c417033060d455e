import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputChunk = Rolldown.OutputChunk;

/**
 * What each page's first load fetches besides the entry (docs/decisions/0067), written at build
 * time to `first-load.json` beside index.html: for each page pattern of the route table, the
 * scripts and styles of its lazy route modules (and of what they import; the layout is in the entry). The
 * BFF puts them in the HTML it answers for that address (bff/lib/static.middleware.ts), so the
 * browser fetches them beside the entry instead of after it has run.
 */
export type FirstLoad = {
  /** Per page pattern (`/pieces/:id`), as the pages contract spells them. */
  pages: Record<string, Assets>;
};
export type Assets = { scripts: string[]; styles: string[] };

export const FIRST_LOAD_FILE = 'first-load.json';

type LazyRoute = { lazy?: unknown; children?: LazyRoute[] };
type Leaf = { pattern: string; chain: LazyRoute[] };

/** `() => import('@/features/x/y.route')` → `@/features/x/y.route`: the module a function-form `lazy` loads. */
function lazySpecifier(lazy: unknown): string | undefined {
  if (typeof lazy !== 'function') return undefined;
  return /\bimport\(\s*["'`]([^"'`]+)["'`]\s*\)/.exec(String(lazy))?.[1];
}

/** A `@/…` specifier as the source file it names (client/…, .tsx or .ts). */
function sourceOf(root: string, specifier: string): string {
  const base = path.join(root, 'client', specifier.replace(/^@\//, ''));
  const file = ['.tsx', '.ts'].map((ext) => base + ext).find((f) => fs.existsSync(f));
  if (!file) throw new Error(`first-load: the route module ${specifier} has no source file`);
  return file;
}

export function firstLoadPlugin(): Plugin {
  let root = process.cwd();
  let outDir = '';
  return {
    name: 'frontdesk:first-load',
    apply: 'build',
    configResolved(config) {
      root = path.resolve(config.root, '..');
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async writeBundle(_options, bundle: Rolldown.OutputBundle) {
      // The route table itself, as the browser tests read it (a walk runs none of the screens: they load lazily).
      const { tsImport } = await import('tsx/esm/api');
      const { routes } = (await tsImport(path.join(root, 'client/app/router.tsx'), import.meta.url)) as { routes: LazyRoute[] };
      const { routeLeaves } = (await tsImport(path.join(root, 'client/app/route-pages.ts'), import.meta.url)) as { routeLeaves: (r: LazyRoute[]) => Leaf[] };

      const chunks = Object.values(bundle).filter((c): c is OutputChunk => c.type === 'chunk');
      const entry = chunks.find((c) => c.isEntry);
      if (!entry) throw new Error('first-load: the build has no entry chunk');
      const chunkOf = (source: string) => {
        const chunk = chunks.find((c) => c.facadeModuleId === source);
        if (!chunk) throw new Error(`first-load: no chunk of its own for ${path.relative(root, source)}`);
        return chunk;
      };
      // The entry and what it imports statically are already in index.html.
      const inHtml = closure([entry], chunks);
      const assetsOf = (sources: string[]): Assets => {
        const wanted = closure(sources.map(chunkOf), chunks).filter((c) => !inHtml.includes(c));
        return {
          scripts: wanted.map((c) => c.fileName),
          styles: [...new Set(wanted.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]))],
        };
      };

      const pages: Record<string, Assets> = {};
      for (const { pattern, chain } of routeLeaves(routes)) {
        if (pattern === '/*') continue; // the not-found catch-all is no page
        const sources = chain.map((r) => lazySpecifier(r.lazy)).filter((s): s is string => !!s).map((s) => sourceOf(root, s));
        pages[pattern] = assetsOf(sources);
      }
      const table: FirstLoad = { pages };
      fs.writeFileSync(path.join(outDir, FIRST_LOAD_FILE), JSON.stringify(table, null, 1));
    },
  };
}

/** The chunks and every chunk they import statically, each once, the given ones first. */
function closure(start: OutputChunk[], chunks: OutputChunk[]): OutputChunk[] {
  const seen: OutputChunk[] = [];
  const queue = [...start];
  while (queue.length) {
    const chunk = queue.shift()!;
    if (seen.includes(chunk)) continue;
    seen.push(chunk);
    for (const name of chunk.imports) {
      const imported = chunks.find((c) => c.fileName === name);
      if (imported) queue.push(imported);
    }
  }
  return seen;
}
