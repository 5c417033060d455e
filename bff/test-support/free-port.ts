import fs from 'node:fs';
import net from 'node:net';

/** The kernel's range for outgoing connections' local ports (Linux); elsewhere, IANA's. */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux
  }
  return [49152, 65535];
}

const listensOn = (port: number) =>
  new Promise<number | undefined>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });

/**
 * A TCP port nothing listens on right now, for a server that stops and must start again on the same
 * port (a restarted BFF that the Kisi emulator's webhooks name, a restarted PostgreSQL). Chosen below
 * the ephemeral range: a port the kernel hands out could be taken in between as the local port of
 * any outgoing connection (the suites run side by side), and the restart would find it in use.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralRange();
  const low = 10_000;
  if (ephemeralLow > low + 1_000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = await listensOn(low + Math.floor(Math.random() * (ephemeralLow - low)));
      if (port) return port;
    }
  }
  const port = await listensOn(0);
  if (!port) throw new Error('No free TCP port on 127.0.0.1');
  return port;
}
