import http from 'node:http';

/** One open Server-Sent Events stream, read by this process (not a browser), frame by frame. */
export interface EventStreamClient {
  /** Why the stream ended while it was still wanted (the BFF closed it, a socket error). */
  ended: () => string | undefined;
  close: () => void;
}

/**
 * Opens `url` (`GET /api/events`, an order's stream) with plain node:http and parses the frames
 * itself, so hundreds of streams stay light for the load generator. `onFrame` gets each event's type
 * and data with `performance.now()` of the chunk it arrived in. Resolves once the stream's first frame
 * (`retry:`) arrived: the BFF subscribes a stream in the same turn as it writes that frame, so from
 * then on every event reaches it.
 */
export function openEventStream(url: string, headers: Record<string, string>, onFrame: (type: string, data: string, at: number) => void, what = 'an event stream'): Promise<EventStreamClient> {
  let ended: string | undefined;
  let closing = false;
  return new Promise((resolve, reject) => {
    let connected = false;
    const req = http.get(url, { headers: { ...headers, accept: 'text/event-stream' }, agent: false }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        return reject(new Error(`${what}: GET ${new URL(url).pathname} answered ${res.statusCode}`));
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let start = 0;
        for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
          const frame = buffer.slice(start, end);
          start = end + 2;
          if (frame.startsWith('retry:')) {
            connected = true;
            resolve(client);
            continue;
          }
          if (frame.startsWith(':')) continue; // heartbeat
          let type = 'message';
          let data = '';
          for (const line of frame.split('\n')) {
            if (line.startsWith('event:')) type = line.slice(6).trim();
            else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.startsWith('data: ') ? 6 : 5);
          }
          onFrame(type, data, at);
        }
        buffer = buffer.slice(start);
      });
      res.on('close', () => {
        if (!closing) ended ??= 'the BFF closed the stream';
        if (!connected) reject(new Error(`${what}: the stream closed before it was open`));
      });
    });
    req.on('error', (err) => {
      if (!closing) ended ??= String(err);
      if (!connected) reject(err);
    });
    const client: EventStreamClient = {
      ended: () => ended,
      close: () => {
        closing = true;
        req.destroy();
      },
    };
  });
}
