import { durationProblem, TIMER_MS } from '../common/duration.rule.js';
import { MAX_TIMER_MS } from '../common/long-timeout.js';
import type { McpUpstreamOptions } from './mcp-upstream-options.interface.js';

/**
 * `toolsTtl` is a `setInterval` and `timeout` a request's timer (the SDK's, and `AbortSignal.timeout`): both at most
 * Node's longest timer. A tool list read again more than 10 times a second would load the upstream for nothing.
 */
const UPSTREAM_MS = { toolsTtl: { min: 100, max: MAX_TIMER_MS }, timeout: TIMER_MS } as const;

/** Letters, digits and `-`: the first `_` of a served name ends the prefix. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9-]*$/;

/** What is wrong with the `upstreams` option, or `undefined`. */
export function upstreamsProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return 'upstreams must be an array of { name, url, … }';
  const names = new Set<string>();
  for (const [i, u] of (value as McpUpstreamOptions[]).entries()) {
    const problem = upstreamProblem(u, `upstreams[${i}]`);
    if (problem) return problem;
    if (names.has(u.name)) return `upstreams: the name "${u.name}" is used twice`;
    names.add(u.name);
  }
  return undefined;
}

function upstreamProblem(u: McpUpstreamOptions, at: string): string | undefined {
  if (!u || typeof u !== 'object') return `${at} must be an object`;
  if (typeof u.name !== 'string' || !NAME.test(u.name))
    return `${at}.name must be letters, digits and "-" (got ${String(u.name)})`;
  const url = typeof u.url === 'string' && URL.canParse(u.url) ? new URL(u.url) : undefined;
  if (!url || !['http:', 'https:'].includes(url.protocol)) return `${at}.url must be an http(s) URL`;
  const tools = u.tools;
  const toolsOk =
    tools === undefined ||
    tools === 'all' ||
    typeof tools === 'function' ||
    (Array.isArray(tools) && tools.every((t) => typeof t === 'string'));
  if (!toolsOk) return `${at}.tools must be 'all', an array of tool names or a function`;
  if (u.scopes !== undefined && !(Array.isArray(u.scopes) && u.scopes.every((s) => typeof s === 'string')))
    return `${at}.scopes must be an array of strings`;
  for (const key of ['toolsTtl', 'timeout'] as const) {
    const problem = u[key] === undefined ? undefined : durationProblem(`${at}.${key}`, u[key], UPSTREAM_MS[key]);
    if (problem) return problem;
  }
  return authProblem(u.auth, `${at}.auth`);
}

function authProblem(auth: McpUpstreamOptions['auth'], at: string): string | undefined {
  if (auth === undefined || auth?.type === 'none') return undefined;
  if (auth?.type === 'bearer')
    return typeof auth.token === 'string' && auth.token ? undefined : `${at}.token must be a non-empty string`;
  if (auth?.type === 'exchange') {
    if (typeof auth.token !== 'function') return `${at}.token must be a function of the caller's principal`;
    if (auth.serviceToken !== undefined && typeof auth.serviceToken !== 'string')
      return `${at}.serviceToken must be a string`;
    return undefined;
  }
  return `${at} must be { type: 'none' }, { type: 'bearer', token } or { type: 'exchange', token }`;
}
