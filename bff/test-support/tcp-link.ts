import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP link to `target` (host:port) on a port of its own that a test can cut and restore: cut, the
 * port refuses connections and the open ones are dropped ("Kisi is unreachable"); restored, it
 * listens on the same port again. Stands for a network between the BFF and Kisi.
 */
export interface TcpLink {
  url: string;
  /** The HTTP request lines that went through (`PATCH /users/12`), in order. */
  requests: string[];
  cut: () => Promise<void>;
  restore: () => Promise<void>;
  close: () => Promise<void>;
}

export async function tcpLink(targetUrl: string): Promise<TcpLink> {
  const target = new URL(targetUrl);
  const sockets = new Set<net.Socket>();
  const requests: string[] = [];
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let server: net.Server | undefined;
  const listen = (port: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer((client) => {
        track(client);
        const upstream = net.connect(Number(target.port), target.hostname);
        track(upstream);
        client.on('data', (chunk: Buffer) => {
          for (const match of chunk.toString('latin1').matchAll(/^(GET|POST|PATCH|PUT|DELETE) (\S+) HTTP\/1\.1\r$/gm)) requests.push(`${match[1]} ${match[2]}`);
        });
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('close', end);
        upstream.on('close', end);
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve(s));
    });
  server = await listen(0);
  const port = (server.address() as AddressInfo).port;
  const cut = async () => {
    if (!server) return;
    const closing = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    cut,
    restore: async () => {
      server ??= await listen(port);
    },
    close: cut,
  };
}
