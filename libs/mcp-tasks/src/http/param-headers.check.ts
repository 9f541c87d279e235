import type { IncomingHttpHeaders } from 'node:http';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { paramHeadersOf, type ParamHeader } from '../discovery/param-headers.reader.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import { headerValue } from './header-value.codec.js';

/** Each tool's mirrored arguments, read once (their rules were checked when the tool was registered). */
const declared = new WeakMap<ToolDefinition, ParamHeader[]>();

const mismatch = (message: string): RpcError =>
  new RpcError(RpcCode.HeaderMismatch, `Bad Request: ${message}`, undefined, 400);

/**
 * SEP-2243 on a 2026-07-28 `tools/call`: each argument the tool marks `x-mcp-header` (`@McpHeader`) is repeated by
 * its `Mcp-Param-<name>` header — decoded when base64, an integer compared as a number — and a header without a
 * value in the body (absent or null) is refused too; any failure is 400 with -32020, before the tool's pipeline.
 */
export function checkParamHeaders(tool: ToolDefinition, args: unknown, h: IncomingHttpHeaders): void {
  let headers = declared.get(tool);
  if (!headers) declared.set(tool, (headers = paramHeadersOf(tool.name, tool.inputSchema)));
  for (const p of headers) {
    const value = valueAt(args, p.path);
    const raw = h[p.header];
    const label = `Mcp-Param-${p.name}`;
    if (raw === undefined) {
      if (value === undefined || value === null) continue;
      throw mismatch(`the ${label} header is absent but arguments.${p.path.join('.')} has a value`);
    }
    const text = headerValue(Array.isArray(raw) ? raw.join(',') : raw);
    if (text === undefined) throw mismatch(`the ${label} header holds invalid characters or invalid base64`);
    if (!matches(text, value)) throw mismatch(`${label} does not match arguments.${p.path.join('.')}`);
  }
}

function valueAt(args: unknown, path: string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** Integers numerically (`42.0` is 42), booleans as `true` / `false`, strings exactly. */
function matches(text: string, value: unknown): boolean {
  if (typeof value === 'string') return text === value;
  if (typeof value === 'boolean') return text === String(value);
  if (typeof value === 'number') return /^[+-]?\d+(\.\d+)?$/.test(text) && Number(text) === value;
  return false;
}
