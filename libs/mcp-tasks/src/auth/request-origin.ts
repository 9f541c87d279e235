import type { IncomingMessage } from 'node:http';
import { allowedHostsFor, firstValue, requestHost } from '../http/request-host.js';

/**
 * The origin a request was sent to, when it may name the resource; else why not (`unconfigured`: the app allows no
 * host for this request, which only `auth.resource` or `allowedHosts` can change).
 */
export type RequestOrigin = { origin: string } | { refused: string; unconfigured?: boolean };

/**
 * `scheme://host[:port]` a request was sent to (through a trusted proxy, the forwarded one), normalised, when its
 * host is one the app allows: `allowedHosts`, or the localhost names for a request that reached it on loopback.
 * Anything else in `Host` (a path, user info) is refused, not dropped: it would have named another resource.
 */
export function requestOrigin(req: IncomingMessage, allowedHosts: string[] | undefined, trust: boolean): RequestOrigin {
  const allowed = allowedHostsFor(req, allowedHosts);
  if (!allowed)
    return { refused: 'it reached the server beyond loopback, and allowedHosts is not set', unconfigured: true };
  const forwarded = trust ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  if (forwarded !== undefined && forwarded !== 'http' && forwarded !== 'https')
    return { refused: `X-Forwarded-Proto ${quote(forwarded)} is neither http nor https` };
  const scheme = forwarded ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  const host = requestHost(req, trust);
  const url = host === undefined ? undefined : parse(`${scheme}://${host}`);
  if (!url || url.username || url.password || url.pathname !== '/' || url.search || url.hash)
    return { refused: `the host ${quote(host ?? '')} is not a host name and port` };
  if (!allowed.includes(url.hostname)) return { refused: `the host ${quote(url.hostname)} is not allowed` };
  return { origin: url.origin };
}

const parse = (text: string): URL | undefined => {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
};

const quote = (s: string): string => JSON.stringify(s.slice(0, 200));
