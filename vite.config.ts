import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { firstLoadPlugin } from './client/app/first-load.plugin.ts';

const bffPort = Number(process.env.PORT ?? 3000);

const fromHere = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig(({ command }) => ({
  root: 'client',
  resolve: {
    alias: [
      { find: '@/', replacement: fromHere('./client/') },
      { find: '@contracts/', replacement: fromHere('./bff/contracts/') },
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
          // Everything every page runs (the libraries, the data layer, the layout, the route table) in
          // the entry, one file: left to itself the bundler split what the lazy screens share with it
          // into a dozen files that each compress on their own (docs/decisions/0074). Screens stay lazy.
          groups: [{ name: 'app', tags: ['$initial'] }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: `http://localhost:${bffPort}`, changeOrigin: false } },
  },
}));
