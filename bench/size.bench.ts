import { execSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bar, info, type Figure } from './figures';

/**
 * docs/ARCHITECTURE.md "Tests and quality bars": the gzip size of the JavaScript loaded for `/` — the entry script and the chunks
 * index.html modulepreloads (its static imports) — against the floor of react + react-dom +
 * react-router + swr + valibot alone (about 104 kB gzip). Target: ratio ≤ 1.15.
 * Sizes are gzip level 9, in kB of 1000 bytes (as Vite prints them).
 */
export const FLOOR_BYTES = 104_000;
export const TARGET_RATIO = 1.15;
const DIST = 'dist/client';

const gz = (file: string) => gzipSync(readFileSync(join(DIST, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** `./x.js` static imports of a built chunk (not dynamic `import("./x.js")`), as dist paths. */
function staticImports(file: string): string[] {
  const code = readFileSync(join(DIST, file), 'utf8');
  const dir = file.slice(0, file.lastIndexOf('/') + 1);
  const found = new Set<string>();
  for (const m of code.matchAll(/(?:\bimport|\bfrom)\s*["'`]\.\/([^"'`]+\.js)["'`]/g)) found.add(dir + m[1]);
  return [...found];
}

function closure(entries: string[]): string[] {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...staticImports(file));
  }
  return [...seen];
}

export async function runSizeBench(): Promise<Figure[]> {
  if (!existsSync(join(DIST, 'index.html'))) execSync('npm run build', { stdio: 'inherit' });
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const entry = [...html.matchAll(/<script[^>]+type="module"[^>]+src="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/([^"]+\.js)"/g)].map((m) => m[1]!);
  const initial = closure([...entry, ...preloads]);
  const initialBytes = initial.reduce((sum, f) => sum + gz(f), 0);
  const ratio = initialBytes / FLOOR_BYTES;

  console.log(`size: JavaScript loaded for "/" (entry + modulepreloads, ${initial.length} files): ${kb(initialBytes)} gzip`);
  for (const f of initial.sort((a, b) => gz(b) - gz(a))) console.log(`  ${kb(gz(f)).padStart(9)}  ${f}`);
  console.log(`size: floor (react + react-dom + react-router + swr + valibot): ${kb(FLOOR_BYTES)}`);
  console.log(`size: ratio ${ratio.toFixed(3)} (target ≤ ${TARGET_RATIO}) ${ratio <= TARGET_RATIO ? 'OK' : 'OVER'}`);

  // For information: the home screen's own lazy chunk, fetched right after the entry runs.
  const entryCode = entry.map((f) => readFileSync(join(DIST, f), 'utf8')).join('\n');
  const home = /import\(["'`]\.\/(home\.route-[^"'`]+\.js)["'`]\)/.exec(entryCode)?.[1];
  const figures = [
    info(`JavaScript loaded for "/" (entry + modulepreloads, ${initial.length} files, gzip)`, initialBytes / 1000, 'kB', 1),
    bar(`ratio to the libraries' floor (${kb(FLOOR_BYTES)})`, ratio, '×', `≤ ${TARGET_RATIO}`, ratio <= TARGET_RATIO, 3),
  ];
  if (home) {
    const extra = closure([`assets/${home}`]).filter((f) => !initial.includes(f));
    const extraBytes = extra.reduce((sum, f) => sum + gz(f), 0);
    console.log(
      `size: plus the home screen's lazy chunks (${extra.length} files): ${kb(extraBytes)} → ${kb(initialBytes + extraBytes)}, ratio ${((initialBytes + extraBytes) / FLOOR_BYTES).toFixed(3)}`,
    );
    figures.push(info(`with the home screen's lazy chunks (${extra.length} more files)`, (initialBytes + extraBytes) / 1000, 'kB', 1));
  }
  return figures;
}

if (process.argv[1]?.endsWith('size.bench.ts')) await runSizeBench();
