import { durationProblem, TIMER_MS, type DurationBounds } from '../common/duration.rule.js';
import { MAX_TIMER_MS } from '../common/long-timeout.js';
import { busConfigProblem } from '../events/bus-config.validator.js';
import { allowedHostsProblem, derivedResourceProblem, resourceProblem } from './host-options.check.js';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';
import type { McpTasksModuleOptions } from './mcp-tasks-options.interface.js';
import { storeOptionProblem } from './store-option.validator.js';
import { upstreamsProblem } from './upstreams.validator.js';

/** What is wrong with an option's value, or `undefined` when nothing is. */
type Check = (value: any) => string | undefined;

const positiveInteger =
  (name: string, orInfinity = false): Check =>
  (v) =>
    typeof v === 'number' && v > 0 && (Number.isInteger(v) || (orInfinity && v === Infinity))
      ? undefined
      : `${name} must be a positive integer${orInfinity ? ' or Infinity' : ''} (got ${String(v)})`;

/** A duration option: the one rule of every option that feeds a timer or a deadline. */
const duration =
  (name: string, bounds: DurationBounds): Check =>
  (v) =>
    durationProblem(name, v, bounds);

/** A duration where 0 means "not at all" (no grace, no cache). */
const TIMER_OR_0: DurationBounds = { min: 0, max: MAX_TIMER_MS };

/** The longest ttl: an expiry time still fits a JavaScript date and a 64-bit column (it is waited in steps). */
export const MAX_TTL_MS = 1e15;

const ofType =
  (name: string, type: 'boolean' | 'function'): Check =>
  (v) =>
    typeof v === type ? undefined : `${name} must be a ${type}`;

/** The checks of every option that has one; an absent option (undefined) is never checked. */
const CHECKS: { [K in keyof McpTasksModuleOptions]-?: Check } = {
  server: (s) =>
    s && typeof s.name === 'string' && s.name && typeof s.version === 'string' && s.version
      ? undefined
      : 'server.name and server.version are required strings',
  path: (v) => (typeof v === 'string' && v.startsWith('/') ? undefined : `path must start with "/" (got ${String(v)})`),
  store: (v) => storeOptionProblem(v),
  bus: (v) => busConfigProblem(v),
  lease: duration('lease', TIMER_MS),
  shutdownGrace: duration('shutdownGrace', TIMER_OR_0),
  ttl: duration('ttl', { min: 1, max: MAX_TTL_MS, nullable: true }),
  pollInterval: duration('pollInterval', TIMER_MS),
  maxPerPrincipal: positiveInteger('maxPerPrincipal', true),
  maxTasks: positiveInteger('maxTasks', true),
  tasks: ofType('tasks', 'boolean'),
  auth: (v) => authProblem(v),
  subject: ofType('subject', 'function'),
  telemetry: ofType('telemetry', 'boolean'),
  guards: (v) =>
    v && typeof v === 'object' && [v.scopes, v.ownership].every((g) => g === undefined || typeof g === 'function')
      ? undefined
      : 'guards must be { scopes?, ownership? }, each a guard class',
  requestStateSecret: (v) =>
    typeof v === 'string' && v.length >= 16
      ? undefined
      : 'requestStateSecret must be a string of at least 16 characters',
  requestStateTtl: duration('requestStateTtl', TIMER_MS),
  questionTimeout: duration('questionTimeout', TIMER_MS),
  allowedHosts: (v) => allowedHostsProblem(v),
  allowedOrigins: (v) => stringList('allowedOrigins', v),
  fastPath: ofType('fastPath', 'boolean'),
  trustProxy: ofType('trustProxy', 'boolean'),
  include: (v) =>
    Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'function')
      ? undefined
      : 'include must be a non-empty array of module classes',
  serializer: (v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? undefined
      : 'serializer must be class-transformer options (an object)',
  upstreams: (v) => upstreamsProblem(v),
};

/** Options of earlier versions, and what replaced them. */
const RENAMED: Record<string, string> = { scope: 'subject', principal: 'subject' };

/** Rejects bad options at startup, with a message naming the option. */
export function validateOptions(raw: unknown): asserts raw is McpTasksModuleOptions {
  if (!raw || typeof raw !== 'object') fail('options are required');
  const options = raw as Record<string, unknown>;
  for (const [old, now] of Object.entries(RENAMED)) {
    if (options[old] !== undefined) fail(`"${old}" was renamed "${now}": ${now}: (req) => string`);
  }
  if (options.server === undefined) fail(CHECKS.server(undefined)!);
  for (const [name, check] of Object.entries(CHECKS)) {
    const problem = options[name] === undefined ? undefined : (check as Check)(options[name]);
    if (problem) fail(problem);
  }
  const hosts = derivedResourceProblem(raw as McpTasksModuleOptions);
  if (hosts) fail(hosts);
}

function authProblem(auth: McpAuthOptions): string | undefined {
  if (!auth || typeof auth !== 'object') return 'auth must be an object';
  const resource = auth.resource === undefined ? undefined : resourceProblem(auth.resource);
  if (resource) return resource;
  if (!Array.isArray(auth.authorizationServers) || auth.authorizationServers.length === 0)
    return 'auth.authorizationServers must list at least one server';
  if (!auth.strategy && !auth.secretOrKey && !auth.jwksUri) return 'auth needs secretOrKey, jwksUri or strategy';
  if (!auth.strategy && !auth.issuer) return 'auth.issuer is required with the built-in JWT strategy';
  if (auth.strategy !== undefined && (typeof auth.strategy !== 'string' || !auth.strategy))
    return 'auth.strategy must be the name of a passport strategy';
  if (auth.requireAudience !== undefined && typeof auth.requireAudience !== 'boolean')
    return 'auth.requireAudience must be a boolean';
  // The module's own strategy checks the audience while verifying: it has no token without one to accept.
  if (auth.requireAudience === false && !auth.strategy)
    return 'auth.requireAudience: false applies to an app strategy (auth.strategy) only';
  if (auth.principal !== undefined && typeof auth.principal !== 'function')
    return 'auth.principal must be a function (user, claims) => ({ subject, scopes?, client? })';
  const cacheTtl =
    auth.cacheTtl === undefined ? undefined : durationProblem('auth.cacheTtl', auth.cacheTtl, TIMER_OR_0);
  if (cacheTtl) return cacheTtl;
  return undefined;
}

const stringList = (name: string, v: unknown): string | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : `${name} must be an array of strings`;

function fail(problem: string): never {
  throw new Error(`McpTasksModule: invalid options: ${problem}`);
}
