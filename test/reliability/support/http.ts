import { Agent, request } from 'node:http';
import type { PhaseTally } from './tally.js';

export const VERSION = '2026-07-28';
export const TASKS_EXT = 'io.modelcontextprotocol/tasks';
export const TASKS = { extensions: { [TASKS_EXT]: {} } };

/** One HTTP request exactly as sent: duplicate header values are an array. */
export interface RawRequest {
  method?: string;
  path?: string;
  headers: Record<string, string | string[]>;
  body?: string | Buffer;
}

export interface RawReply {
  /** Undefined when no HTTP answer came (connection reset, refused, timed out). */
  status?: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The JSON-RPC message in the body (plain JSON, or the last SSE `data:` frame), if any. */
  json?: any;
  ms: number;
  transportError?: string;
}

export interface Target {
  host: string;
  port: number;
}

/** Idle pooled connections are dropped after 4 s, before the server's 5 s keep-alive timeout closes them. */
const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 4000 });

/**
 * Sends one request over a keep-alive pool; never throws (a missing answer is `transportError`).
 * A pooled connection the server closed as idle just as it was reused is retried once on a new one
 * (the race Node's docs describe for `reusedSocket`): that is the client's pool, not the server.
 */
export async function sendRaw(target: Target, raw: RawRequest, timeoutMs = 30_000): Promise<RawReply> {
  const r = await sendOnce(target, raw, timeoutMs);
  return r.staleSocket ? sendOnce(target, raw, timeoutMs) : r;
}

function sendOnce(target: Target, raw: RawRequest, timeoutMs: number): Promise<RawReply & { staleSocket?: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (r: Omit<RawReply, 'ms'> & { staleSocket?: boolean }) =>
      resolve({ ...r, ms: performance.now() - started });
    let req;
    try {
      req = request(
        {
          host: target.host,
          port: target.port,
          path: raw.path ?? '/mcp',
          method: raw.method ?? 'POST',
          headers: raw.headers,
          agent,
          timeout: timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', (e) => done({ headers: {}, text: '', transportError: e.message }));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            done({
              status: res.statusCode,
              headers: res.headers,
              text,
              json: parseBody(text, String(res.headers['content-type'] ?? '')),
            });
          });
        },
      );
    } catch (e) {
      done({ headers: {}, text: '', transportError: `not sent: ${(e as Error).message}` });
      return;
    }
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (e: NodeJS.ErrnoException) =>
      done({
        headers: {},
        text: '',
        transportError: e.message,
        staleSocket: req.reusedSocket && e.code === 'ECONNRESET',
      }),
    );
    req.end(raw.body);
  });
}

function parseBody(text: string, type: string): any {
  try {
    if (type.includes('event-stream')) {
      const frames = text.split('\n').filter((l) => l.startsWith('data: '));
      return frames.length ? JSON.parse(frames[frames.length - 1].slice(6)) : undefined;
    }
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** An `Mcp-Name` value: as is when it is plain visible ASCII, else `=?base64?…?=`. */
export const nameHeader = (v: string): string =>
  /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(v) ? v : `=?base64?${Buffer.from(v, 'utf8').toString('base64')}?=`;

const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

export interface RpcOptions {
  caps?: Record<string, unknown>;
  id?: string | number;
  token?: string;
  meta?: Record<string, unknown>;
  headers?: Record<string, string>;
}

let nextId = 1;

/** A correct 2026-07-28 request (envelope and headers) for `method`. */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  o: RpcOptions = {},
): RawRequest & { body: string } {
  const body = {
    jsonrpc: '2.0',
    id: o.id ?? nextId++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientCapabilities': o.caps ?? {},
        ...o.meta,
      },
    },
  };
  const name = NAME_PARAM[method] && params[NAME_PARAM[method]];
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': nameHeader(name) } : {}),
    ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
    ...o.headers,
  };
  return { method: 'POST', headers, body: JSON.stringify(body) };
}

/** Sends a correct request and records it in `tally` under `label` (default: the method). */
export async function rpc(
  target: Target,
  tally: PhaseTally | undefined,
  method: string,
  params: Record<string, unknown> = {},
  o: RpcOptions & { label?: string; timeoutMs?: number } = {},
): Promise<RawReply> {
  const reply = await sendRaw(target, modernRequest(method, params, o), o.timeoutMs);
  tally?.request(o.label ?? method, reply.status, reply.json?.error?.code, reply.ms);
  return reply;
}
