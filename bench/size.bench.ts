import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startBenchBff } from './bench-fixtures';
import { bar, info, type Figure } from './figures';

/**
 * docs/ARCHITECTURE.md "Tests and quality bars", DESIGN "JavaScript for `/`": the gzip size of every
 * script the browser fetches for `/` until the network is idle (the entry, what the HTML
 * modulepreloads, the layout's and the home screen's lazy chunks, whatever else they import), read
 * by the system Chromium from the built app on the real BFF, against the floor of react + react-dom
 * + react-router + swr + valibot alone (about 104 kB gzip). Target: ratio ≤ 1.15.
 * Sizes are gzip level 9 of the built files, in kB of 1000 bytes (as Vite prints them).
 */
export const FLOOR_BYTES = 104_000;
export const TARGET_RATIO = 1.15;
const DIST = 'dist/client';

const gz = (file: string) => gzipSync(fs.readFileSync(path.join(DIST, file)), { level: 9 }).length;
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The built scripts (`assets/x.js`) Chromium fetches for `/` until 500 ms pass without a request. */
async function scriptsFetchedForHome(): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdesk-size-'));
  const bff = await startBenchBff(`file:${path.join(dir, 'bench.db')}`, dir, { STATIC_DIR: DIST, UPLOADS_DIR: path.join(dir, 'uploads') });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ baseURL: bff.url });
    const scripts = new Set<string>();
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.endsWith('.js')) scripts.add(pathname.slice(1));
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    return [...scripts];
  } finally {
    await browser.close();
    await bff.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function runSizeBench(): Promise<Figure[]> {
  if (!fs.existsSync(path.join(DIST, 'index.html'))) execSync('npm run build', { stdio: 'inherit' });
  const files = await scriptsFetchedForHome();
  const missing = files.filter((f) => !fs.existsSync(path.join(DIST, f)));
  if (missing.length > 0) throw new Error(`the browser fetched scripts the build does not have: ${missing.join(', ')}`);
  const bytes = files.reduce((sum, f) => sum + gz(f), 0);
  const ratio = bytes / FLOOR_BYTES;

  console.log(`size: JavaScript the browser fetches for "/" until idle (${files.length} files): ${kb(bytes)} gzip`);
  for (const f of files.sort((a, b) => gz(b) - gz(a))) console.log(`  ${kb(gz(f)).padStart(9)}  ${f}`);
  console.log(`size: floor (react + react-dom + react-router + swr + valibot): ${kb(FLOOR_BYTES)}`);
  console.log(`size: ratio ${ratio.toFixed(3)} (target ≤ ${TARGET_RATIO}) ${ratio <= TARGET_RATIO ? 'OK' : 'OVER'}`);
  return [
    info(`JavaScript the browser fetches for "/" until idle (${files.length} files, gzip)`, bytes / 1000, 'kB', 1),
    bar(`ratio to the libraries' floor (${kb(FLOOR_BYTES)})`, ratio, '×', `≤ ${TARGET_RATIO}`, ratio <= TARGET_RATIO, 3),
  ];
}

if (process.argv[1]?.endsWith('size.bench.ts')) await runSizeBench();
