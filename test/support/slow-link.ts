import { createConnection, createServer, type Socket } from 'node:net';

/** A TCP relay to a server, on a free local port. */
export interface SlowLink {
  /** `url` with its host and port replaced by the relay's. */
  via(url: string): string;
  /**
   * Drops every connection through the relay and stops listening until `restore` (a new connection is refused, not
   * accepted and dropped: a client then never half-opens one): the link is down.
   */
  cut(): Promise<void>;
  /** Listens again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Relays TCP to `host:port`, holding every chunk a client sends `delay` ms (in order) before passing it on: a slow
 * link to a broker, so what a client asks of it (a LISTEN, a SUBSCRIBE) takes effect that much later. With `delay`
 * 0, a plain relay that can be cut (one instance's outage while the others still reach the broker).
 */
export async function slowLink(host: string, port: number, delay: number): Promise<SlowLink> {
  const sockets = new Set<Socket>();
  let down = false;
  const server = createServer((client) => {
    const upstream = createConnection({ host, port });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => (sockets.delete(s), client.destroy(), upstream.destroy()));
    }
    client.on('data', (chunk) => setTimeout(() => upstream.write(chunk), delay));
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: at } = server.address() as { port: number };
  return {
    via: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(at);
      return u.toString();
    },
    cut: async () => {
      down = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    restore: async () => {
      down = false;
      await new Promise<void>((resolve) => server.listen(at, '127.0.0.1', resolve));
    },
    close: () => {
      for (const s of sockets) s.destroy();
      return down ? Promise.resolve() : new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
