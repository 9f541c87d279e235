import { afterEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { KeepAlivePoster } from './keep-alive.poster.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const echo: Handler = (req, res, body) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ body, via: req.socket.remotePort }));
};

/** A server that tells its connections apart, and how each ended: `end` when the client closed it first. */
async function server(handle: Handler = echo, keepAliveTimeout = 60_000) {
  const sockets: Array<{ socket: Socket; ended: 'client' | 'server' | undefined }> = [];
  const http: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, res, body));
  });
  http.keepAliveTimeout = keepAliveTimeout;
  http.on('connection', (socket: Socket) => {
    const entry = { socket, ended: undefined as 'client' | 'server' | undefined };
    sockets.push(entry);
    socket.on('end', () => (entry.ended ??= 'client'));
    socket.on('close', () => (entry.ended ??= 'server'));
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`);
  const close = () => {
    http.closeAllConnections();
    return new Promise<void>((r) => http.close(() => r()));
  };
  return { url, sockets, open: () => sockets.filter((s) => !s.ended).length, close };
}

const settled = (what: () => boolean, ms: number) =>
  new Promise<boolean>((resolve) => {
    const end = Date.now() + ms;
    const tick = () => (what() ? resolve(true) : Date.now() > end ? resolve(false) : setTimeout(tick, 20));
    tick();
  });

describe('KeepAlivePoster', () => {
  const cleanup: Array<() => unknown> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });

  it('POSTs in turn share one kept-alive connection; as many at once as are in flight', async () => {
    const s = await server();
    const poster = new KeepAlivePoster(s.url);
    cleanup.push(s.close, () => poster.close());
    for (let i = 0; i < 5; i++) {
      const reply = await poster.post({ 'content-type': 'application/json' }, `{"n":${i}}`);
      expect(reply).toMatchObject({ status: 200, headers: { 'content-type': 'application/json' } });
      expect(JSON.parse(reply.text)).toMatchObject({ body: `{"n":${i}}` });
    }
    expect(s.sockets).toHaveLength(1);
    await Promise.all([1, 2, 3].map((n) => poster.post({}, `${n}`)));
    expect(s.sockets).toHaveLength(3);
  });

  it('close() ends the idle connections at once, and a busy one once its answer is in', async () => {
    let release: () => void = () => undefined;
    const s = await server((req, res, body) => {
      if (body !== 'slow') return echo(req, res, body);
      release = () => echo(req, res, body);
    });
    const poster = new KeepAlivePoster(s.url);
    cleanup.push(s.close);
    const slow = poster.post({}, 'slow');
    await Promise.all([poster.post({}, 'a'), poster.post({}, 'b')]);
    expect(s.sockets).toHaveLength(3);
    poster.close();
    expect(await settled(() => s.open() === 1, 5000)).toBe(true);
    release();
    expect(JSON.parse((await slow).text)).toMatchObject({ body: 'slow' });
    expect(await settled(() => s.open() === 0, 5000)).toBe(true);
    expect(s.sockets.map((x) => x.ended)).toEqual(['client', 'client', 'client']);
  });

  it("closes an idle connection before the server's announced Keep-Alive timeout runs out", async () => {
    // The server announces `timeout=4` and closes at 4 s; the agent closes at 3 s (a second's margin).
    const s = await server(echo, 4000);
    const poster = new KeepAlivePoster(s.url);
    cleanup.push(s.close, () => poster.close());
    await poster.post({}, 'x');
    expect(await settled(() => s.open() === 0, 10_000)).toBe(true);
    expect(s.sockets[0].ended).toBe('client');
  });

  it("an abort rejects with the signal's reason; a refused connection as fetch rejects", async () => {
    const s = await server(() => undefined);
    const poster = new KeepAlivePoster(s.url);
    cleanup.push(s.close, () => poster.close());
    const abort = new AbortController();
    const pending = poster.post({}, 'never answered', abort.signal);
    abort.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
    await s.close();
    const refused = await poster.post({}, 'x').catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'TypeError', message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });
});
