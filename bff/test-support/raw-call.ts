import type { IncomingMessage } from 'node:http';
import request from 'supertest';
import * as v from 'valibot';
import type { HttpMethod } from '../contracts/endpoint.contract';
import { ProblemSchema, type Problem } from '../contracts/problem.contract';

/** An answer as it came: status, headers, the body as text, and the body as JSON when it is. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
  /** An event stream was opened (and closed again at its headers). */
  streamed: boolean;
}

export interface RawCall {
  /** HEAD and OPTIONS for the protocols spoken beside the contracts (tus). */
  method: HttpMethod | 'HEAD' | 'OPTIONS';
  /** The path and query exactly as they go on the wire. */
  url: string;
  headers?: Record<string, string>;
  /** Sent as given: no Content-Type is added for it. */
  body?: Buffer;
}

/**
 * One request to the app listening at `base`, through supertest, with the bytes and headers given and
 * nothing added. An event stream is closed as soon as its headers arrive (it would never end).
 */
export async function rawCall(base: string, { method, url, headers = {}, body }: RawCall, timeoutMs = 15_000): Promise<RawAnswer> {
  const client = request(base);
  const byMethod = { GET: client.get, POST: client.post, PUT: client.put, PATCH: client.patch, DELETE: client.delete, HEAD: client.head, OPTIONS: client.options };
  let req = byMethod[method].call(client, url);
  req = req.timeout({ response: timeoutMs, deadline: timeoutMs * 2 });
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  let streamed = false;
  const readText = (res: IncomingMessage, done: (err: Error | null, body: unknown) => void) => {
    if (String(res.headers['content-type']).startsWith('text/event-stream')) {
      streamed = true;
      res.destroy();
      return done(null, '');
    }
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    res.on('error', (err) => done(err, ''));
  };
  // On Node, superagent hands a parser the incoming message (its types say its own Response).
  req = req.buffer(true).parse(readText as unknown as Parameters<typeof req.parse>[0]);
  // superagent would serialise a Buffer as JSON under a JSON Content-Type: the bytes go as they are.
  const res = await (body === undefined ? req : req.serialize((bytes: unknown) => bytes as string).send(body));
  const text = typeof res.body === 'string' ? res.body : '';
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers as RawAnswer['headers'], text, json, streamed };
}

/** The problem document of an error answer, or why it is not one (type and shape of RFC 9457, its status the answer's). */
export function problemOf(answer: RawAnswer): { problem: Problem } | { wrong: string } {
  const type = String(answer.headers['content-type'] ?? '(none)');
  if (!type.startsWith('application/problem+json')) return { wrong: `Content-Type ${type}, body ${answer.text.slice(0, 200)}` };
  const parsed = v.safeParse(ProblemSchema, answer.json);
  if (!parsed.success) return { wrong: `not a problem document: ${answer.text.slice(0, 200)}` };
  if (parsed.output.status !== answer.status) return { wrong: `problem status ${parsed.output.status} in a ${answer.status} answer` };
  return { problem: parsed.output };
}
