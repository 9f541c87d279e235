import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** One request that went through the proxy, and how it was answered. */
export interface RecordedExchange {
  /** Which of the client's connections carried it (1, 2, … in the order they were opened). */
  connection: number;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
  responseHeaders: IncomingHttpHeaders;
}

export interface RecordingProxy {
  /** `target` with the proxy's host and port. */
  url: string;
  exchanges: RecordedExchange[];
  /** Whether the client's connection `n` is closed. */
  closed(n: number): boolean;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of `target` that records what a client sends it (headers, body, on which connection) and
 * the status and headers of each answer; answers (SSE streams too) are piped back as they come. It keeps a client's
 * idle connection a minute (`Keep-Alive: timeout=60`), so one closed sooner was closed by the client.
 */
export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const exchanges: RecordedExchange[] = [];
  const connections = new Map<Socket, { n: number; closed: boolean }>();
  const server = createServer((req, res) => {
    const connection = connections.get(req.socket)!.n;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = { ...req.headers, host: to.host };
      const options = { host: to.hostname, port: to.port, method: req.method, path: req.url, headers, agent };
      const upstream = request(options, (up) => {
        const exchange = { connection, headers: req.headers, body: body.toString('utf8'), status: up.statusCode ?? 0 };
        exchanges.push({ ...exchange, responseHeaders: up.headers });
        // Hop-by-hop: the client's connection is the proxy's own (its keep-alive announced by this server).
        const { connection: _, 'keep-alive': __, ...passed } = up.headers;
        res.writeHead(up.statusCode ?? 502, passed);
        up.pipe(res);
      });
      upstream.on('error', () => res.destroy());
      upstream.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket: Socket) => {
    const entry = { n: connections.size + 1, closed: false };
    connections.set(socket, entry);
    socket.on('close', () => (entry.closed = true));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(to);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.href,
    exchanges,
    closed: (n) => [...connections.values()].some((c) => c.n === n && c.closed),
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
