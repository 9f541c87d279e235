import type { JsonRpcResponse, RawClientDispatch } from '@modelcontextprotocol/ext-tasks/client';
import { readJsonRpcReply } from './json-rpc-body.reader.js';
import { paramHeaders } from './param-headers.js';
import type { PollCadence } from './poll-cadence.policy.js';
import { PROTOCOL_VERSION } from './protocol.constants.js';

/**
 * The host-owned request path ext-tasks needs for 2026-07-28 task traffic (`tools/call`, `tasks/*`):
 * the SDK Client's codecs do not carry those wire shapes, so ext-tasks hands us the framed
 * `{ method, params }` and we POST it with a JSON-RPC envelope and the standard headers.
 */
export function createHttpRawDispatch(
  url: URL,
  send: typeof fetch,
  cadence: PollCadence,
  /** A tool's `inputSchema`, for its `Mcp-Param-*` headers (SEP-2243). */
  schemaOf?: (tool: string) => Promise<unknown>,
): RawClientDispatch {
  let nextId = 1;
  return async (request, options) => {
    const id = `tasks-client-${nextId++}`;
    const { method, params } = request as { method: string; params?: { name?: unknown; arguments?: unknown } };
    const call = method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined;
    const mirrored = call !== undefined && schemaOf ? paramHeaders(await schemaOf(call), params?.arguments) : {};
    // `send` adds the token (asking a provider again after a 401) and rejects on a 401/403 that stands.
    const res = await send(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': PROTOCOL_VERSION,
        'mcp-method': method,
        ...(call !== undefined ? { 'mcp-name': call, ...mirrored } : {}),
        // ext-tasks routes task follow-ups with {"Mcp-Name": taskId} here.
        ...options?.context?.headers,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, ...(request as object) }),
      signal: options?.signal,
    });
    const reply = await readJsonRpcReply(res, id);
    if (!reply)
      throw new Error(
        `${method}: HTTP ${res.status} without a JSON-RPC response (content-type ${res.headers.get('content-type')})`,
      );
    if (reply.error) return { kind: 'error', error: reply.error } as JsonRpcResponse;
    if (method === 'tasks/get') cadence.apply(reply.result);
    return { kind: 'result', result: reply.result } as JsonRpcResponse;
  };
}
