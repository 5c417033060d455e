import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { listenFirst, type Listening } from '../start-up';

/** Requests Node's own HTTP parser refuses get a problem document too, on the server the BFF listens with. */
let listening: Listening;
let port: number;
beforeAll(async () => {
  listening = await listenFirst(0, '127.0.0.1');
  listening.serve((_req, res) => res.end('ok'));
  port = (listening.server.address() as AddressInfo).port;
});
afterAll(() => listening.close());

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
const rawExchange = (bytes: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });

const problemOf = (answer: string) => {
  const [head, body] = answer.split('\r\n\r\n');
  expect(head).toMatch(/content-type: application\/problem\+json/i);
  return { statusLine: head!.split('\r\n')[0], problem: JSON.parse(body!) };
};

it('answers headers over 16 KB with a 431 problem', async () => {
  const { statusLine, problem } = problemOf(await rawExchange(`GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
  expect(statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
  expect(problem).toMatchObject({ status: 431, detail: expect.stringMatching(/too large/) });
});

it('answers a malformed request line and a body with both Transfer-Encoding and Content-Length with a 400 problem', async () => {
  expect(problemOf(await rawExchange('GARBAGE\r\n\r\n')).problem).toMatchObject({ status: 400, detail: 'The request is not valid HTTP/1.1.' });
  const both = await rawExchange('POST /api HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n');
  expect(problemOf(both).problem).toMatchObject({ status: 400 });
});

it('answers an Expect it cannot meet with a 417 problem, and still serves a good request', async () => {
  const { statusLine, problem } = problemOf(await rawExchange('GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: teapot\r\nConnection: close\r\n\r\n'));
  expect(statusLine).toBe('HTTP/1.1 417 Expectation Failed');
  expect(problem.status).toBe(417);
  expect(await rawExchange('GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*ok$/);
});
