import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { requestHost } from '../auth/resource-url.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc-error.js';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

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
  const local = LOOPBACK.test(req.socket.localAddress ?? '');
  const hosts = allowedHosts ?? (local ? localhostAllowedHostnames() : undefined);
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
