import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_JPEG, FAKE_PNG } from './sample-upstreams';

/**
 * A local fake of Rebrickable's picture CDN (real HTTP on a free port of 127.0.0.1), laid out as
 * `https://cdn.rebrickable.com/media/`: `media/sets/<number>.jpg` answers a JPEG, `media/parts/….png`
 * a PNG, `…-<n>kb.jpg` a JPEG of n kB (to fill a picture folder), a name with `missing` in it 404, and
 * anything else 404. `broken: true` drops every connection unanswered (an unreachable CDN: the BFF's
 * 502). `env` points the app's catalogue at it (CATALOGUE_MEDIA_URL). Used by the BFF and browser tests.
 */
export interface RebrickableMedia {
  /** CATALOGUE_MEDIA_URL: this fake's `/media` folder. */
  mediaUrl: string;
  env: Record<string, string>;
  /** The address of a set's picture on this fake (`10270-1` → `…/media/sets/10270-1.jpg`). */
  setPicture: (name: string) => string;
  /** Paths asked for, oldest first. */
  requests: string[];
  /** Drop every connection unanswered (true) or answer again (false). */
  broken: boolean;
  close: () => Promise<void>;
}

const SIZED = /-(\d{1,4})kb\.jpg$/;

export async function startRebrickableMedia(): Promise<RebrickableMedia> {
  const requests: string[] = [];
  const fake = { broken: false };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    requests.push(url);
    if (fake.broken) return void req.socket.destroy();
    const send = (type: string, body: Buffer) => res.writeHead(200, { 'Content-Type': type, 'Content-Length': body.length }).end(body);
    if (url.includes('missing')) return void res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>');
    if (url.startsWith('/media/sets/') && url.endsWith('.jpg')) {
      const sized = SIZED.exec(url);
      // A JPEG's start, padded to the size asked for: only the type and the size matter to the proxy.
      return send('image/jpeg', sized ? Buffer.concat([FAKE_JPEG, Buffer.alloc(Math.max(0, Number(sized[1]) * 1024 - FAKE_JPEG.length))]) : FAKE_JPEG);
    }
    if (url.startsWith('/media/parts/') && url.endsWith('.png')) return send('image/png', FAKE_PNG);
    res.writeHead(404, { 'Content-Type': 'text/html' }).end('<h1>Not Found</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const mediaUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/media`;
  return {
    mediaUrl,
    env: { CATALOGUE_MEDIA_URL: mediaUrl },
    setPicture: (name) => `${mediaUrl}/sets/${name}.jpg`,
    requests,
    get broken() {
      return fake.broken;
    },
    set broken(value: boolean) {
      fake.broken = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
