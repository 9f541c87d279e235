import type { CanActivate, Type } from '@nestjs/common';
import { durationProblem } from '../common/duration.rule.js';
import { MAX_TIMER_MS } from '../common/long-timeout.js';
import type { McpTasksConsoleOptions } from './mcp-tasks-console-options.interface.js';

/** Console options with defaults applied. */
export interface ResolvedConsoleOptions {
  path: string;
  server?: string;
  guard?: Type<CanActivate> | CanActivate;
  scopes: string[];
  showResults: boolean;
  pollInterval: number;
  actor?: McpTasksConsoleOptions['actor'];
}

export const MCP_CONSOLE_OPTIONS = Symbol('MCP_CONSOLE_OPTIONS');

const fail = (msg: string): never => {
  throw new Error(`McpTasksConsoleModule: ${msg}`);
};

const isGuard = (g: unknown): boolean =>
  typeof g === 'function' || (!!g && typeof (g as CanActivate).canActivate === 'function');

/** Applies defaults and refuses, at startup, a console without an access rule or with bad options. */
export function resolveConsoleOptions(raw: McpTasksConsoleOptions | undefined): ResolvedConsoleOptions {
  const o = raw ?? {};
  const scopes = o.scope === undefined ? [] : [o.scope].flat();
  if (!scopes.every((s) => typeof s === 'string' && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(s)))
    fail('scope must be an OAuth scope or a list of them (printable ASCII, no spaces, quotes or backslashes)');
  if (o.guard !== undefined && !isGuard(o.guard)) fail('guard must be a CanActivate class or instance');
  if (o.guard === undefined && scopes.length === 0)
    fail(
      'an access rule is required: pass `guard` (a CanActivate class or instance, e.g. your admin guard) ' +
        'or `scope` (an OAuth scope such as "mcp:admin", checked with the McpTasksModule `auth`)',
    );
  const path = o.path ?? '/mcp-console';
  if (typeof path !== 'string' || !/^\/[\w\-./~]*$/.test(path) || path.includes('//'))
    fail(`path must start with "/" and hold only URL path characters (got ${String(path)})`);
  const pollInterval = o.pollInterval ?? 2_000;
  // The page's timer: under 100 ms it would hammer the API, past Node's (and browsers') longest timer fire at once.
  const pollProblem = durationProblem('pollInterval', pollInterval, { min: 100, max: MAX_TIMER_MS });
  if (pollProblem) fail(pollProblem);
  if (o.server !== undefined && (typeof o.server !== 'string' || !o.server)) fail('server must be a non-empty string');
  if (o.showResults !== undefined && typeof o.showResults !== 'boolean') fail('showResults must be a boolean');
  if (o.actor !== undefined && typeof o.actor !== 'function') fail('actor must be a function');
  return {
    path: path.length > 1 ? path.replace(/\/+$/, '') : path,
    server: o.server,
    guard: o.guard,
    scopes,
    showResults: o.showResults ?? false,
    pollInterval,
    actor: o.actor,
  };
}
