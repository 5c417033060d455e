import type { Response } from 'express';

/** Starts a Server-Sent Events answer: never cached or buffered by a proxy; the browser retries after `retryMs`. */
export function openEventStream(res: Response, retryMs = 3000): void {
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    'X-Accel-Buffering': 'no',
  });
  res.write(`retry: ${retryMs}\n\n`);
}

/** One event; an `id` lets the browser resume after it with Last-Event-ID. */
export const sseFrame = (event: { id?: string; type: string; data: unknown }): string =>
  `${event.id === undefined ? '' : `id: ${event.id}\n`}event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;

/** A comment line that keeps idle connections (and the proxies between) open. */
export const sseHeartbeat = (): string => `: heartbeat ${new Date().toISOString()}\n\n`;
