import type { RawReply, RawRequest } from '../support/http.js';
import { nameHeader, TASKS, VERSION } from '../support/http.js';

/**
 * One generated request and what may come back: `allow` lists `status:code` outcomes, where code is
 * a JSON-RPC error code, `result`, `empty` (no body), or `*` (any well-formed JSON-RPC error).
 */
export interface FuzzCase {
  category: string;
  raw: RawRequest;
  /** The id the request carried when it is a valid JSON-RPC id, else null. */
  id: string | number | null;
  allow: string[];
  /** The error message must match (when the answer is an error). */
  message?: RegExp;
  /** A result must be a tool error result (`isError: true`) whose one text block matches. */
  toolError?: RegExp;
  /** The kind of message it mutates, for the per-method counts (cases built from `ACCEPTED`). */
  method?: string;
}

/** A valid request this generator starts from, and its correct outcome. */
export interface Base {
  method: string;
  params: Record<string, unknown>;
  caps: Record<string, unknown>;
  allow: string[];
  message?: RegExp;
}

/** A request being mutated: the body as an object, headers as sent. */
export interface Draft {
  body: any;
  headers: Record<string, string | string[]>;
}

const NAME_PARAM: Record<string, string> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

export const nameParamOf = (method: string): string | undefined => NAME_PARAM[method];

export function draftOf(b: Base, id: string | number): Draft {
  const name = NAME_PARAM[b.method] ? b.params[NAME_PARAM[b.method]] : undefined;
  return {
    body: {
      jsonrpc: '2.0',
      id,
      method: b.method,
      params: {
        ...b.params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': b.caps,
        },
      },
    },
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': VERSION,
      'mcp-method': b.method,
      ...(typeof name === 'string' ? { 'mcp-name': nameHeader(name) } : {}),
    },
  };
}

export const idOf = (v: unknown): string | number | null => (typeof v === 'string' || typeof v === 'number' ? v : null);

/** A case from a draft: `text` overrides the serialized body (for raw JSON tricks). */
export function caseOf(
  category: string,
  d: Draft,
  allow: string[],
  o: { text?: string | Buffer; message?: RegExp; toolError?: RegExp; method?: string } = {},
): FuzzCase {
  const body = o.text ?? JSON.stringify(d.body);
  return {
    category,
    raw: { method: o.method ?? 'POST', headers: d.headers, body },
    id: idOf(d.body?.id),
    allow,
    message: o.message,
    ...(o.toolError ? { toolError: o.toolError } : {}),
  };
}

/** `status:code` of a reply, as `allow` lists them. */
export function outcomeOf(r: RawReply): string {
  if (r.status === undefined) return `no-answer:${r.transportError}`;
  if (!r.text) return `${r.status}:empty`;
  const j = r.json;
  if (j?.error && typeof j.error.code === 'number') return `${r.status}:${j.error.code}`;
  if (j && 'result' in j) return `${r.status}:result`;
  return `${r.status}:not-json-rpc`;
}

export { TASKS };
