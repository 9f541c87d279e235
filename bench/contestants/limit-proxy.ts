// The gateway's "limit": a bare node:http relay in front of MCP_UPSTREAM_URL with nothing a gateway adds — no
// guards, no tool list, no mirrors, no framework. It does the least a JSON-RPC relay must: read the call, strip the
// served prefix from the tool's name, send it upstream on a kept-alive socket under an id of its own, read the
// answer and give it back under the caller's id. What a proxied call costs in the same place on this machine.
import http from 'node:http';

const PREFIX = 'upstream_';
const upstream = new URL(process.env.MCP_UPSTREAM_URL ?? 'http://127.0.0.1:3000/mcp');
const agent = new http.Agent({ keepAlive: true, timeout: 30_000 });
const FORWARDED = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-method', 'authorization'];
let ids = 0;

function relay(body: string, headers: http.IncomingHttpHeaders, done: (status: number, text: string) => void) {
  const msg = JSON.parse(body) as { id: unknown; params?: { name?: string } };
  const callerId = msg.id;
  const name = msg.params?.name;
  if (typeof name === 'string' && name.startsWith(PREFIX)) msg.params!.name = name.slice(PREFIX.length);
  msg.id = `limit-${++ids}`;
  const out = JSON.stringify(msg);
  const h: Record<string, string | number> = { 'content-length': Buffer.byteLength(out) };
  for (const k of FORWARDED) if (typeof headers[k] === 'string') h[k] = headers[k];
  if (typeof msg.params?.name === 'string') h['mcp-name'] = msg.params.name;
  const req = http.request(upstream, { method: 'POST', agent, headers: h }, (res) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (c: string) => (text += c));
    res.on('end', () => {
      const answer = JSON.parse(text) as { id: unknown };
      answer.id = callerId;
      done(res.statusCode ?? 502, JSON.stringify(answer));
    });
  });
  req.on('error', (err) =>
    done(502, JSON.stringify({ jsonrpc: '2.0', id: callerId, error: { message: String(err) } })),
  );
  req.end(out);
}

const server = http.createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => {
    const reply = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    try {
      relay(body, req.headers, reply);
    } catch {
      reply(400, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? '127.0.0.1');
