import type { INestApplication } from '@nestjs/common';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { VERSION } from './mcp-request.js';

export interface ListenStream {
  status: number;
  headers: IncomingHttpHeaders;
  frames: Array<Record<string, any>>;
  /** Resolves with the first frame (from `from` on) matching `pred`, or rejects after `ms`. */
  next(pred: (f: Record<string, any>) => boolean, ms?: number, from?: number): Promise<Record<string, any>>;
  close(): void;
}

/** Opens `subscriptions/listen` over real HTTP and collects its SSE frames as they arrive. */
export function listen(
  app: INestApplication,
  notifications: Record<string, unknown>,
  o: { caps?: Record<string, unknown>; id?: string | number; headers?: Record<string, string>; path?: string } = {},
): Promise<ListenStream> {
  const { port } = app.getHttpServer().address() as AddressInfo;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: o.id ?? 'L1',
    method: 'subscriptions/listen',
    params: {
      notifications,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientCapabilities': o.caps ?? {},
      },
    },
  });
  return new Promise((resolve, reject) => {
    let req: ClientRequest;
    const frames: Array<Record<string, any>> = [];
    const waiters = new Set<() => void>();
    req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: o.path ?? '/mcp',
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': VERSION,
          'mcp-method': 'subscriptions/listen',
          ...o.headers,
        },
      },
      (res) => {
        let buf = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buf += chunk;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data: '))
              .map((l) => l.slice(6))
              .join('');
            if (data) frames.push(JSON.parse(data));
            for (const w of waiters) w();
          }
        });
        res.on('error', () => undefined);
        // A refused listen is a plain JSON-RPC error, not a stream.
        if (!String(res.headers['content-type']).includes('event-stream')) {
          res.on('end', () => {
            if (buf.trim()) frames.push(JSON.parse(buf));
            buf = '';
            for (const w of waiters) w();
          });
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          frames,
          next(pred, ms = 3000, from = 0) {
            return new Promise((ok, fail) => {
              const check = (): boolean => {
                const f = frames.slice(from).find(pred);
                if (f) {
                  waiters.delete(check);
                  clearTimeout(t);
                  ok(f);
                }
                return !!f;
              };
              const t = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching frame in ${ms} ms; got ${JSON.stringify(frames)}`));
              }, ms);
              if (!check()) waiters.add(check);
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
