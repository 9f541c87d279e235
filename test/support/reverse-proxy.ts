import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A reverse proxy on a loopback port, as nginx would be configured in front of an app: it forwards every request to
 * `target` (Host rewritten to the upstream, as `proxy_pass` does) and adds `X-Forwarded-Host`/`-Proto` for the public
 * name it stands for. Responses, SSE streams included, are piped back as they come.
 */
export async function reverseProxy(
  target: number,
  publicHost: string,
  proto = 'https',
): Promise<{ port: number; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const headers: IncomingHttpHeaders = {
      ...req.headers,
      host: `127.0.0.1:${target}`,
      'x-forwarded-host': publicHost,
      'x-forwarded-proto': proto,
      'x-forwarded-for': req.socket.remoteAddress,
    };
    const upstream = request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}
