import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { firstLoadPlugin } from './build/first-load.plugin.ts';

const bffPort = Number(process.env.PORT ?? 3000);

const fromHere = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * Which shared chunk a module of a screen goes to (docs/performance.md "How the bars are met"): a feature's own modules, and
 * its contract, to the feature's (`pt`, `chat`, `gym`…); the shared components, helpers and the other
 * contracts to the `kit`. Null: the bundler decides (the libraries a screen alone uses, the screens
 * themselves, each its own chunk).
 */
const FEATURES = fs.readdirSync(fromHere('./client/features'));
const CONTRACT_FEATURE: Record<string, string> = { 'pt-reports': 'pt', webhook: 'webhooks', status: 'home' };
/** Contracts every page of another feature reads, so kit: the chat's, for the unread count on the staff shell's Chat tab. */
const KIT_CONTRACTS = ['chat'];
/**
 * Left out of the kit: the home page's status card (the first page of every visitor fetches its few
 * modules, not the kit: DESIGN "JavaScript for `/`"), and the door-access link helpers, which bring
 * the Kisi contract and serve the gym's and Kisi's pages alone.
 */
const NOT_IN_KIT = [
  '/client/components/service-status.tsx',
  '/client/lib/kisi.ts',
  '/client/components/created-link.tsx',
  '/client/components/link-state-badge.tsx',
];

function sharedChunkOf(id: string): string | null {
  const file = id.replaceAll('\\', '/');
  if (file.includes('/node_modules/') || /\.route\.tsx?$/.test(file) || NOT_IN_KIT.some((f) => file.endsWith(f))) return null;
  const feature = /\/client\/features\/([^/]+)\//.exec(file)?.[1];
  if (feature) return feature;
  const contract = /\/bff\/contracts\/([^/]+)\.contract\.ts$/.exec(file)?.[1];
  if (contract) {
    const owner = CONTRACT_FEATURE[contract] ?? contract;
    return FEATURES.includes(owner) && !KIT_CONTRACTS.includes(contract) ? owner : 'kit';
  }
  return /\/client\/(components|lib)\//.test(file) ? 'kit' : null;
}

/** A feature's page declarations (pages/<feature>.reads.ts) go with the feature, before any other group takes them along with its own imports. */
const pageReadsChunkOf = (id: string): string | null => {
  const feature = /\/pages\/([^/]+)\.reads\.ts$/.exec(id.replaceAll('\\', '/'))?.[1];
  return feature && FEATURES.includes(feature) ? feature : null;
};

export default defineConfig(({ command }) => ({
  root: 'client',
  resolve: {
    alias: [
      { find: '@/', replacement: fromHere('./client/') },
      { find: '@contracts/', replacement: fromHere('./bff/contracts/') },
      { find: '@pages/', replacement: fromHere('./pages/') },
      // SWR asks the shim for useSyncExternalStore; React 19 has its own (the shim would hand it over).
      { find: /^use-sync-external-store\/shim$/, replacement: fromHere('./client/lib/use-sync-external-store-shim.ts') },
      // React Router 7 exports only its development build (react-router#12532, #14102): its warnings
      // switched on, 0.6 kB more for every page. The build takes the production files it ships beside them.
      ...(command === 'build'
        ? [
            { find: /^react-router$/, replacement: fromHere('./node_modules/react-router/dist/production/index.mjs') },
            { find: /^react-router\/dom$/, replacement: fromHere('./node_modules/react-router/dist/production/dom-export.mjs') },
          ]
        : []),
    ],
  },
  plugins: [
    react(),
    // Each page's own chunks, for the BFF to modulepreload from the HTML of that address (docs/decisions/0067).
    firstLoadPlugin(),
    // Pre-compressed copies so the BFF serves hashed assets as gzip or brotli without work per request.
    compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|svg|html|json|webp)$/, threshold: 0 }),
  ],
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    // No list of each lazy chunk's imports in the entry (2.7 kB gzip of file names, mostly hashes, on
    // every first load): the first page's are modulepreloaded from its HTML (docs/decisions/0067), and a
    // link's target starts loading on hover (AppLink); its imports follow as the browser reads it.
    // Styles of lazy chunks are still loaded before they run. No polyfill either (es2022 browsers have it).
    modulePreload: false,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything every page runs (the libraries, the data layer, the layout, the route table) in
            // the entry, one file: left to itself the bundler split what the lazy screens share with it
            // into a dozen files that each compress on their own (docs/performance.md "How the bars are met"). Screens stay lazy.
            { name: 'app', tags: ['$initial'], priority: 4 },
            // What screens share, in a few files instead of one per set of screens sharing it: a page's
            // first load was 20 to 25 files of 1–2 kB, which a phone on HTTP/1.1 (six connections)
            // fetched in four or five round trips beside the entry, slowing it (docs/performance.md "How the bars are met").
            // The kit first, so a feature's chunk does not take the shared modules it imports.
            { name: 'kit', test: (id) => sharedChunkOf(id) === 'kit', minShareCount: 2, priority: 3 },
            { name: pageReadsChunkOf, minShareCount: 2, priority: 2 },
            { name: (id) => (sharedChunkOf(id) === 'kit' ? null : sharedChunkOf(id)), minShareCount: 2, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${bffPort}`, changeOrigin: false } },
  },
}));
