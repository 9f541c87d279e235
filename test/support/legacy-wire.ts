import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';

/** One HTTP exchange of the 2025 era over real HTTP: a JSON body, or the SSE frames as they arrive. */
export interface LegacyExchange {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed SSE `data:` frames so far (SSE responses). */
  frames: Array<Record<string, any>>;
  /** The whole body once it ended (JSON parsed when it is JSON; undefined for an empty one). */
  body(): Promise<any>;
  /** The first frame (from index `from` on) matching `pred`; rejects after `ms`. */
  next(pred: (f: Record<string, any>) => boolean, ms?: number, from?: number): Promise<Record<string, any>>;
  /** Resolves when the server ended the response. */
  ended: Promise<void>;
  close(): void;
}

export const LEGACY = '2025-11-25';

/** Headers of a 2025-era client: no `Mcp-Method`, the version once it was negotiated (pass `null` to drop one). */
export function legacyHeaders(session?: string, extra: Record<string, string | null> = {}): Record<string, string> {
  const all: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': LEGACY,
    ...(session ? { 'mcp-session-id': session } : {}),
    ...extra,
  };
  return Object.fromEntries(Object.entries(all).filter(([, v]) => v !== null)) as Record<string, string>;
}

let nextId = 1;

/** A 2025-era request body. */
export const request = (method: string, params?: Record<string, unknown>, id: string | number = `w${nextId++}`) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

/** Sends one HTTP request; resolves once the response headers are in. */
export function exchange(
  url: URL,
  o: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<LegacyExchange> {
  return new Promise((resolve, reject) => {
    const frames: Array<Record<string, any>> = [];
    const waiters = new Set<() => void>();
    let text = '';
    let req: ClientRequest;
    const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
    req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: o.method ?? 'POST', headers: o.headers },
      (res) => {
        let buf = '';
        let endedResolve!: () => void;
        const ended = new Promise<void>((r) => (endedResolve = r));
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          buf += chunk;
          let i;
          while ((i = buf.indexOf('\n\n')) >= 0) {
            const block = buf.slice(0, i);
            buf = buf.slice(i + 2);
            const data = block
              .split('\n')
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trimStart())
              .join('\n');
            if (data) frames.push(JSON.parse(data) as Record<string, any>);
          }
          for (const w of waiters) w();
        });
        res.on('end', endedResolve);
        res.on('close', endedResolve);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          frames,
          ended,
          async body() {
            await ended;
            if (!text) return undefined;
            return (res.headers['content-type'] ?? '').startsWith('application/json') ? JSON.parse(text) : text;
          },
          next(pred, ms = 20_000, from = 0) {
            return new Promise((ok, fail) => {
              const check = () => {
                const found = frames.slice(from).find(pred);
                if (found) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  ok(found);
                }
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(new Error(`no matching frame within ${ms} ms; frames: ${JSON.stringify(frames)}`));
              }, ms);
              waiters.add(check);
              check();
            });
          },
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * POSTs a 2025-era message and waits for the whole answer: `{ status, headers, body, frames }` — `body` is the JSON
 * body, or for an SSE answer its last frame (the response).
 */
export async function post(url: URL, body: unknown, headers: Record<string, string> = legacyHeaders()) {
  const x = await exchange(url, { body, headers });
  const whole = await x.body();
  return {
    status: x.status,
    headers: x.headers,
    body: typeof whole === 'string' ? x.frames.at(-1) : whole,
    frames: x.frames,
  };
}

/** `initialize` at `version` with `capabilities`; returns the session id the server issued. */
export async function initialize(url: URL, capabilities: Record<string, unknown> = {}, version = LEGACY) {
  const params = { protocolVersion: version, capabilities, clientInfo: { name: 'wire', version: '1' } };
  const res = await post(
    url,
    request('initialize', params),
    legacyHeaders(undefined, { 'mcp-protocol-version': null }),
  );
  return { session: res.headers['mcp-session-id'] as string, result: res.body?.result, res };
}
