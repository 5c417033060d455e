import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { sendProblem } from './problem';

/**
 * How long a request body may stop arriving before the request is given up (408): a client that
 * sends less than its Content-Length, or stalls mid-body, would otherwise hold its request (and the
 * body parser, or an upload's lock) until Node's own limit for a whole request, 5 minutes. Idle
 * time, not the whole body's: a large upload chunk over a slow but steady link keeps going.
 */
export const BODY_IDLE_MS = 30_000;

/** Whether the request says a body follows (a length above 0, or chunks). */
const hasBody = (req: IncomingMessage): boolean => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * Gives up a request whose body has sent nothing for `idleMs`: a 408 problem and the connection
 * closed (the rest of the body could not be told from the next request), or, when the answer has
 * begun already, the connection closed. Once the body is all there, the connection has no time
 * limit again: the answer may take as long as it takes.
 */
export function bodyIdleTimeout(idleMs: number = BODY_IDLE_MS): RequestHandler {
  return (req, res, next) => {
    if (!hasBody(req) || req.complete) return next();
    const socket = req.socket;
    // The socket's idle timer (reset by each byte in or out): Node emits it on the request while the body is incomplete.
    const onIdle = () => {
      if (req.complete) return;
      if (res.headersSent) return void socket.destroy();
      res.locals.bodyTimedOut = true;
      res.setHeader('Connection', 'close');
      const idle = idleMs >= 1000 ? `${Math.round(idleMs / 1000)} s` : `${idleMs} ms`;
      sendProblem(res, 408, `The request body stopped arriving (nothing for ${idle}): send it again.`);
    };
    req.once('timeout', onIdle);
    socket.setTimeout(idleMs);
    const done = () => {
      req.off('timeout', onIdle);
      req.off('end', done);
      req.off('close', done);
      // Back to the server's own (none), unless Node has set its keep-alive timer on the socket since.
      if (!socket.destroyed && socket.timeout === idleMs) socket.setTimeout(0);
    };
    req.once('end', done);
    req.once('close', done);
    next();
  };
}
