import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

export const VERSION = '2026-07-28';
export const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

export interface RpcOptions {
  /** Client capabilities for this request (default: none). */
  caps?: Record<string, unknown>;
  id?: string | number;
  /** Header overrides; `null` removes a header. */
  headers?: Record<string, string | null>;
  /** Extra `_meta` keys. */
  meta?: Record<string, unknown>;
  path?: string;
}

const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};
let nextId = 1;

/** One 2026-07-28 JSON-RPC POST with a correct envelope and headers (unless told otherwise). */
export function rpc(app: INestApplication, method: string, params: Record<string, unknown> = {}, o: RpcOptions = {}) {
  const id = o.id ?? nextId++;
  const body = {
    jsonrpc: '2.0',
    id,
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
  const headers: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(NAME_PARAM[method] && typeof params[NAME_PARAM[method]] === 'string'
      ? { 'mcp-name': params[NAME_PARAM[method]] as string }
      : {}),
    ...o.headers,
  };
  let req = request(app.getHttpServer()).post(o.path ?? '/mcp');
  for (const [k, v] of Object.entries(headers)) if (v !== null) req = req.set(k, v);
  return req.send(body);
}

/** Shorthands for the task calls, all declaring the extension. */
export const call = (app: INestApplication, name: string, args: Record<string, unknown> = {}, o: RpcOptions = {}) =>
  rpc(app, 'tools/call', { name, arguments: args }, o);
export const getTask = (app: INestApplication, taskId: string, o: RpcOptions = {}) =>
  rpc(app, 'tasks/get', { taskId }, { caps: TASKS, ...o });
export const updateTask = (app: INestApplication, taskId: string, inputResponses: unknown, o: RpcOptions = {}) =>
  rpc(app, 'tasks/update', { taskId, inputResponses }, { caps: TASKS, ...o });
export const cancelTask = (app: INestApplication, taskId: string, o: RpcOptions = {}) =>
  rpc(app, 'tasks/cancel', { taskId }, { caps: TASKS, ...o });

/** Polls `tasks/get` until `until(status)` holds (default: terminal), or fails after `ms`. */
export async function waitForTask(
  app: INestApplication,
  taskId: string,
  until = (s: string) => ['completed', 'failed', 'cancelled'].includes(s),
  ms = 5000,
  o: RpcOptions = {},
) {
  const end = Date.now() + ms;
  for (;;) {
    const res = await getTask(app, taskId, o);
    if (res.body.result && until(res.body.result.status)) return res.body.result;
    const terminal = ['completed', 'failed', 'cancelled'].includes(res.body.result?.status);
    if (Date.now() > end || terminal || res.body.error)
      throw new Error(`task ${taskId} still ${JSON.stringify(res.body)} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
