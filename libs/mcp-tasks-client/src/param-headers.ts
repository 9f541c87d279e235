import type { Client } from '@modelcontextprotocol/client';

/** What may go in a header as is: visible ASCII and inner spaces (RFC 9110 field values), not the sentinel. */
const PLAIN = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;
const SENTINEL = /^=\?base64\?.*\?=$/s;
const object = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** A value as SEP-2243 mirrors it: as is when it can be, else `=?base64?<UTF-8>?=`. */
export function encodeParamValue(value: string | number | boolean): string {
  const text = String(value);
  return PLAIN.test(text) && !SENTINEL.test(text) ? text : `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
}

/**
 * The `Mcp-Param-<name>` headers of a call to `tool` with `args` (SEP-2243): for each property its `inputSchema`
 * marks `x-mcp-header` along a chain of `properties`, the argument at that path, when it has a primitive value.
 * The ext-tasks path sends `tools/call` itself, without the SDK client's mirroring: this adds it.
 */
export function paramHeaders(inputSchema: unknown, args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  const walk = (schema: unknown, value: unknown): void => {
    if (!object(schema) || !object(schema.properties) || !object(value)) return;
    for (const [key, sub] of Object.entries(schema.properties)) {
      const v = value[key];
      const name = object(sub) ? sub['x-mcp-header'] : undefined;
      if (typeof name === 'string' && ['string', 'number', 'boolean'].includes(typeof v)) {
        headers[`mcp-param-${name.toLowerCase()}`] = encodeParamValue(v as string | number | boolean);
      }
      walk(sub, v);
    }
  };
  walk(inputSchema, args);
  return headers;
}

/** Reads a tool's `inputSchema` from the SDK client's `tools/list` (its cache keeps it for the list's `ttlMs`). */
export function toolSchemas(client: Client): (tool: string) => Promise<unknown> {
  return async (tool) => {
    const { tools } = await client.listTools().catch(() => ({ tools: [] as Array<{ name: string }> }));
    return (tools as Array<{ name: string; inputSchema?: unknown }>).find((t) => t.name === tool)?.inputSchema;
  };
}
