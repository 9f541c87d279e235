import type { McpTasksModuleOptions } from './mcp-tasks-options.interface.js';

/**
 * `allowedHosts`: host names as a URL spells them (lower case; no scheme, port or path), since that is what a
 * request's `Host` is compared with — any other spelling would never match. An empty list would refuse every request.
 */
export function allowedHostsProblem(v: unknown): string | undefined {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return 'allowedHosts must be an array of strings';
  if (v.length === 0) return 'allowedHosts must list at least one host name';
  const bad = v.find((h: string) => hostnameOf(h) !== h);
  return bad === undefined
    ? undefined
    : 'allowedHosts lists host names as in a URL, lower case, without scheme, port or path ' +
        `(got ${JSON.stringify(bad)})`;
}

/** `auth.resource`: an RFC 8707 resource indicator the metadata can be served for (http(s), no fragment). */
export function resourceProblem(v: unknown): string | undefined {
  const ok = typeof v === 'string' && URL.canParse(v) && /^https?:$/.test(new URL(v).protocol) && !v.includes('#');
  return ok ? undefined : `auth.resource must be an absolute http(s) URL without a fragment (got ${String(v)})`;
}

/**
 * A resource taken from requests (no `auth.resource`) comes only from a host the app allows. Behind a trusted proxy
 * the forwarded host is a public name, never a localhost one: without `allowedHosts` no request could be served.
 */
export function derivedResourceProblem(o: McpTasksModuleOptions): string | undefined {
  if (!o.auth || o.auth.resource !== undefined || !o.trustProxy || o.allowedHosts) return undefined;
  return (
    'trustProxy with auth and no auth.resource needs allowedHosts (the public host names the proxy forwards) or ' +
    'auth.resource: a resource is taken only from a host the app allows'
  );
}

const hostnameOf = (h: string): string | undefined =>
  URL.canParse(`http://${h}`) ? new URL(`http://${h}`).hostname : undefined;
