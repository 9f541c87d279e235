import { randomUUID } from 'node:crypto';
import { readJsonRpcText } from './json-rpc-body.reader.js';
import { McpRpcError } from './mcp-rpc.error.js';
import type { RawRequestOptions } from './raw-request.interface.js';
import { framedParams, standardHeaders, type WireFraming } from './wire-framing.js';

/**
 * One JSON-RPC request on the 2026-07-28 wire, framed like every other request of the connection, answered with
 * the raw `result` (its `resultType` included: `complete`, `input_required` with `inputRequests` and
 * `requestState`, or `task`). Nothing is followed, answered or retried: that is the caller's.
 */
export async function sendRawRequest(
  framing: WireFraming,
  method: string,
  params: Record<string, unknown>,
  options: RawRequestOptions,
  /** More headers: a `tools/call`'s `Mcp-Param-*` (SEP-2243). */
  extraHeaders: Record<string, string> = {},
): Promise<Record<string, unknown>> {
  const id = `raw-${randomUUID()}`;
  const res = await framing.poster.post(
    { ...standardHeaders(method, params, options.token), ...extraHeaders },
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: framedParams(framing, params, options.capabilities, options.meta),
    }),
    options.signal,
  );
  const type = res.headers['content-type'];
  const reply = readJsonRpcText(type ?? '', res.text, id);
  if (!reply)
    throw new Error(`${method}: HTTP ${res.status} without a JSON-RPC response (content-type ${type ?? null})`);
  if (reply.error) throw new McpRpcError(reply.error.code, reply.error.message, reply.error.data);
  if (!reply.result || typeof reply.result !== 'object') throw new Error(`${method}: the response has no result`);
  return reply.result as Record<string, unknown>;
}
