import { classifyInboundRequest } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { META } from '../mcp-tasks.constants.js';

type Route = ReturnType<typeof classifyInboundRequest>;

/** Distinct envelopes remembered; clients repeat theirs on every request, so a few suffice. */
const MEMO_MAX = 512;
/** Longer envelopes are not remembered (a key holds the whole envelope as text). */
const KEY_MAX = 4096;
const REQUEST_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** W3C trace context and baggage, as `_meta` carries them (as strings). */
const traceField = (key: string, value: unknown): boolean =>
  typeof value === 'string' && (key === 'traceparent' || key === 'tracestate' || key === 'baggage');

/** `meta` without its trace fields, or `meta` itself when it has none. */
function untraced(meta: Record<string, unknown>): Record<string, unknown> {
  let traced = false;
  for (const k in meta) traced ||= traceField(k, meta[k]);
  if (!traced) return meta;
  const rest: Record<string, unknown> = {};
  for (const k in meta) if (!traceField(k, meta[k])) rest[k] = meta[k];
  return rest;
}

const plain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const header = (req: IncomingMessage, name: string): string | undefined => req.headers[name] as string | undefined;

/**
 * The SDK's era classification of a POSTed body. Its verdict on a well-formed request depends only
 * on the headers, the method and the `_meta` envelope, and checking that envelope (zod) was the
 * largest cost of a `tasks/get`. So a body that is structurally a JSON-RPC request has its
 * (headers, method, envelope) verdict remembered; anything else asks the SDK every time.
 */
export class RequestClassifier {
  private readonly verdicts = new Map<string, boolean>();

  classify(req: IncomingMessage, body: unknown): Route {
    const input = {
      httpMethod: 'POST',
      protocolVersionHeader: header(req, 'mcp-protocol-version'),
      mcpMethodHeader: header(req, 'mcp-method'),
      mcpNameHeader: header(req, 'mcp-name'),
    };
    if (!isRequestShape(body)) return classifyInboundRequest({ ...input, body });
    const meta = (body.params as Record<string, unknown>)._meta as Record<string, unknown>;
    const key = keyOf(input.protocolVersionHeader, input.mcpMethodHeader, body.method, meta);
    if (key === undefined) return classifyInboundRequest({ ...input, body });
    let modern = this.verdicts.get(key);
    if (modern === undefined) {
      // The same envelope on a minimal request: the verdict the full body would get.
      const probe = classifyInboundRequest({
        ...input,
        body: { jsonrpc: '2.0', id: 0, method: body.method, params: { _meta: meta } },
      });
      modern = probe.kind === 'modern' && probe.messageKind === 'request';
      if (this.verdicts.size >= MEMO_MAX) this.verdicts.delete(this.verdicts.keys().next().value!);
      this.verdicts.set(key, modern);
    }
    if (!modern) return classifyInboundRequest({ ...input, body });
    const claimed = (meta as Record<string, unknown>)[META.protocolVersion] as string;
    return {
      kind: 'modern',
      messageKind: 'request',
      message: body,
      classification: { era: 'modern', revision: claimed },
    } as Route;
  }
}

/**
 * The memo key, or none for an envelope too big (or too deep to serialize) to remember. String trace fields are left
 * out: they are no envelope keys (the SDK's envelope schema lets other keys through unchecked), and a traced caller
 * (a gateway with OpenTelemetry on) sends a new `traceparent` every time, which missed the memo on every request.
 */
function keyOf(
  version: string | undefined,
  methodHeader: string | undefined,
  method: string,
  meta: Record<string, unknown>,
): string | undefined {
  let text: string;
  try {
    text = JSON.stringify(untraced(meta));
  } catch {
    return undefined;
  }
  return text.length > KEY_MAX ? undefined : `${version}\n${methodHeader}\n${method}\n${text}`;
}

/** What the SDK's JSON-RPC request schema accepts, minus `_meta` (strict keys; a string or safe-integer id). */
function isRequestShape(
  body: unknown,
): body is { jsonrpc: '2.0'; id: string | number; method: string; params?: Record<string, unknown> } {
  if (!plain(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return false;
  if (!(typeof body.id === 'string' || Number.isSafeInteger(body.id))) return false;
  if (body.params !== undefined && !(plain(body.params) && plain(body.params._meta))) return false;
  for (const k in body) if (!REQUEST_KEYS.has(k)) return false;
  return body.params !== undefined;
}
