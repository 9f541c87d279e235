import type { OutgoingHttpHeaders } from 'node:http';
import { LoopbackClient, type Reply } from './http-client.js';

export const VERSION = '2026-07-28';
export const TASKS_CAPS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** A ready-to-send MCP 2026-07-28 POST: serialized once, sent many times. */
export interface RpcRequest {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

export interface RpcOptions {
  caps?: Record<string, unknown>;
  token?: string;
  id?: number | string;
}

const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** The `_meta` envelope and the standard headers (docs/wire.md). */
export function rpcRequest(method: string, params: Record<string, unknown>, o: RpcOptions = {}): RpcRequest {
  const message = {
    jsonrpc: '2.0',
    id: o.id ?? 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': VERSION,
        'io.modelcontextprotocol/clientCapabilities': o.caps ?? {},
      },
    },
  };
  const body = Buffer.from(JSON.stringify(message));
  const name = NAME_PARAM[method] ? params[NAME_PARAM[method]] : undefined;
  const headers: OutgoingHttpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'content-length': body.length,
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
  };
  return { headers, body };
}

export const toolCall = (name: string, args: Record<string, unknown>, o: RpcOptions = {}) =>
  rpcRequest('tools/call', { name, arguments: args }, o);
export const taskGet = (taskId: string, o: RpcOptions = {}) =>
  rpcRequest('tasks/get', { taskId }, { caps: TASKS_CAPS, ...o });
export const taskCancel = (taskId: string, o: RpcOptions = {}) =>
  rpcRequest('tasks/cancel', { taskId }, { caps: TASKS_CAPS, ...o });

/** Sends one request and returns its JSON-RPC `result`; throws on an HTTP or JSON-RPC error. */
export async function call<T = Record<string, any>>(
  client: LoopbackClient,
  req: RpcRequest,
  timeoutMs = 30_000,
): Promise<T> {
  const reply: Reply = await client.post('/mcp', req.headers, req.body, timeoutMs);
  let parsed: { result?: T; error?: unknown };
  try {
    parsed = JSON.parse(reply.body);
  } catch {
    throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 200)}`);
  }
  if (reply.status !== 200 || !parsed.result) throw new Error(`HTTP ${reply.status}: ${reply.body.slice(0, 300)}`);
  return parsed.result;
}

/** A tool's first text content, parsed as JSON (the bench fixture tools answer that way). */
export async function callJsonTool<T>(
  client: LoopbackClient,
  name: string,
  args: Record<string, unknown>,
  o: RpcOptions = {},
  timeoutMs?: number,
): Promise<T> {
  const result = await call<{ content?: Array<{ text?: string }>; isError?: boolean }>(
    client,
    toolCall(name, args, o),
    timeoutMs,
  );
  const text = result.content?.[0]?.text ?? '';
  if (result.isError) throw new Error(`${name}: ${text}`);
  return JSON.parse(text) as T;
}
