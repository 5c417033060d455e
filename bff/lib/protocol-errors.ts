import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { statusTitle } from './http-error';
import { problemJson } from './problem';

/** What Node's HTTP parser refuses before Express sees the request, by its error code. */
const PARSER_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request line and headers are too large (at most 16 KB together).'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
  HPE_UNEXPECTED_CONTENT_LENGTH: [400, 'The request sends both Transfer-Encoding and Content-Length.'],
};

/**
 * Answers the requests Node's HTTP server refuses itself — headers over its limit, a malformed
 * request line, an `Expect` it cannot meet — with a problem document like every other refusal,
 * instead of a bare status line (or nothing). The connection is closed after it: the parser has
 * lost its place in the stream.
 */
export function answerProtocolErrors(server: Server): void {
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    // A client that went away, or a socket already answered, has no one to read a problem.
    if (err.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    const [status, detail] = PARSER_ERRORS[err.code ?? ''] ?? [400, 'The request is not valid HTTP/1.1.'];
    const body = problemJson(status, detail);
    socket.end(
      `HTTP/1.1 ${status} ${statusTitle(status)}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  server.on('checkExpectation', (_req, res) => {
    const body = problemJson(417, 'Only "Expect: 100-continue" is understood.');
    res.writeHead(417, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    res.end(body);
  });
}
