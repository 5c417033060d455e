import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface StubServer {
  url: string;
  requests: RecordedRequest[];
  /** Resolves once the server has recorded `count` requests in all. */
  received: (count: number) => Promise<void>;
  close: () => Promise<void>;
}

/** A throwaway HTTP server on 127.0.0.1:0 standing in for Kisi; it records every request it gets. */
export async function startStubServer(handler: (req: RecordedRequest, res: http.ServerResponse) => void): Promise<StubServer> {
  const requests: RecordedRequest[] = [];
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      requests.push(recorded);
      for (const waiter of waiting.filter((w) => requests.length >= w.count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.resolve();
      }
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    received: (count) => (requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
