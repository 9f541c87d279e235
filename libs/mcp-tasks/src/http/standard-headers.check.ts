import type { IncomingHttpHeaders } from 'node:http';
import { MCP_METHODS } from '../dispatcher/methods.table.js';
import { MODERN_PROTOCOL_VERSION, RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';

const SUPPORTED = [MODERN_PROTOCOL_VERSION];

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return Array.isArray(v) ? v.join(',') : v;
};

/** `=?base64?…?=` values carry non-ASCII names; compare what they decode to. */
const decoded = (v: string): string | undefined => {
  const m = /^=\?base64\?([A-Za-z0-9+/=]*)\?=$/.exec(v);
  if (!m) return v;
  const text = Buffer.from(m[1], 'base64').toString('utf8');
  return Buffer.from(text, 'utf8').toString('base64') === m[1] ? text : undefined;
};

const mismatch = (message: string): RpcError =>
  new RpcError(RpcCode.HeaderMismatch, `Bad Request: ${message}`, undefined, 400);

/**
 * The checks the SDK runs after classifying a request, repeated for the methods this library
 * answers in front of it: the claimed version is supported, then every required header is present
 * and repeats the body; `Mcp-Name` repeats the param the method table names (SEP-2243, the Tasks
 * extension). (The SDK keeps these helpers private; the classifier alone lets both pass.)
 */
export function checkStandardHeaders(
  method: string,
  params: Record<string, unknown>,
  version: string,
  h: IncomingHttpHeaders,
): void {
  if (!SUPPORTED.includes(version)) {
    throw new RpcError(
      RpcCode.UnsupportedVersion,
      `Unsupported protocol version: ${version}`,
      { supported: SUPPORTED, requested: version },
      400,
    );
  }
  const pv = header(h, 'mcp-protocol-version');
  if (pv === undefined) throw mismatch('the required MCP-Protocol-Version header is absent');
  if (pv !== version) throw mismatch(`MCP-Protocol-Version ${pv} does not match the body's ${version}`);
  const mm = header(h, 'mcp-method');
  if (mm === undefined) throw mismatch(`the body names method ${method} but the required Mcp-Method header is absent`);
  if (mm !== method) throw mismatch(`Mcp-Method ${mm} does not match the body's method ${method}`);
  const source = MCP_METHODS.get(method)?.nameParam;
  if (!source) return;
  const raw = header(h, 'mcp-name');
  if (raw === undefined) throw mismatch(`the required Mcp-Name header is absent (params.${source})`);
  // Surrounding white space is not part of the value (RFC 9110 field values).
  const name = decoded(raw.trim());
  if (name === undefined) throw mismatch('the Mcp-Name header is not valid base64');
  if (typeof params[source] === 'string' && name !== params[source]) {
    throw mismatch(`Mcp-Name does not match params.${source}`);
  }
}
