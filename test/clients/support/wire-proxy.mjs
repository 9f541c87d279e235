// A recording HTTP proxy in front of the demo: every client talks to it, so a case can check what really went over
// the wire (the protocol version spoken, a notifications/cancelled, an error code) rather than what a client says.
// GET /__wire returns the exchanges recorded so far; DELETE /__wire forgets them.
import http from 'node:http';

export function startWireProxy(target) {
  const upstream = new URL(target);
  let exchanges = [];
  const server = http.createServer((req, res) => {
    if (req.url === '/__wire') {
      if (req.method === 'DELETE') exchanges = [];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(exchanges));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const entry = {
        method: req.method,
        version: req.headers['mcp-protocol-version'],
        request: parse(body.toString()),
        status: 0,
        response: '',
      };
      exchanges.push(entry);
      const out = http.request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (up) => {
          entry.status = up.statusCode;
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.on('data', (c) => {
            entry.response += c.toString();
            res.write(c);
          });
          up.on('end', () => res.end());
          up.on('error', () => res.destroy());
        },
      );
      out.on('error', () => res.destroy());
      // A client that closes its request (an abort) closes the upstream one too: the server sees the disconnect.
      res.on('close', () => {
        if (!res.writableFinished) out.destroy();
      });
      out.end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        close: () => new Promise((r) => server.close(() => r()) && server.closeAllConnections()),
      });
    }),
  );
}

const parse = (text) => {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
};
