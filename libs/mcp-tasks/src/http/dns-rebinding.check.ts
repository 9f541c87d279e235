import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import { allowedHostsFor, arrivedOnLoopback, requestHost } from './request-host.js';

/**
 * DNS-rebinding protection. A server reached on a loopback address answers only for localhost
 * host names unless `allowedHosts` says otherwise; an `Origin`, when present, must name an allowed
 * host (or the request's own host). Behind a trusted proxy the host is the one it forwarded. Refusals are 403 with
 * a JSON-RPC error and no id.
 */
export function checkHostAndOrigin(
  req: IncomingMessage,
  allowedHosts?: string[],
  allowedOrigins?: string[],
  trustProxy = false,
): void {
  const local = arrivedOnLoopback(req);
  const hosts = allowedHostsFor(req, allowedHosts);
  const sent = trustProxy ? requestHost(req, true) : req.headers.host;
  let hostname: string | undefined;
  if (hosts) {
    const host = validateHostHeader(sent, hosts);
    if (!host.ok) throw forbidden(host.message);
    hostname = host.hostname;
  } else {
    hostname = hostOf(sent);
  }
  const origins = (allowedOrigins ?? (local ? localhostAllowedHostnames() : [])).map(originHost);
  if (hostname) origins.push(hostname);
  const origin = validateOriginHeader(req.headers.origin, origins);
  if (!origin.ok) throw forbidden(origin.message);
}

const forbidden = (message: string): RpcError =>
  new RpcError(RpcCode.InvalidRequest, `Forbidden: ${message}`, undefined, 403);

const hostOf = (host: string | undefined): string | undefined => {
  if (!host) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
};

/** Options may list full origins (`https://app.example`) or bare host names. */
const originHost = (o: string): string => (o.includes('://') ? (hostOf(new URL(o).host) ?? o) : o);
