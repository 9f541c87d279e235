import { Body, Headers, Ip, Param, Query, Req } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import { PARAM_METADATA_KEY } from './param-metadata.key.js';

/** The kind Nest records for a route parameter decorator (the part of its metadata key before `:`). */
function kindOf(decorator: ParameterDecorator): string {
  class Probe {
    probe(): void {}
  }
  decorator(Probe.prototype, 'probe', 0);
  const [key] = Object.keys(Reflect.getMetadata(PARAM_METADATA_KEY, Probe, 'probe') as object);
  return key!.split(':')[0]!;
}

/** `@Body()`, `@Query()`, `@Param()`: all read the tool's arguments (the whole object, or one property). */
const ARGUMENTS = new Set([kindOf(Body()), kindOf(Query()), kindOf(Param())]);
const REQUEST = kindOf(Req());
const HEADERS = kindOf(Headers());
const IP = kindOf(Ip());

type HttpRequest = { headers?: Record<string, unknown>; ip?: unknown };

/**
 * What Nest's route parameter decorators give a tool method (a controller's, or a provider's), so a controller
 * method becomes a tool unchanged: `@Body()`, `@Query()` and `@Param()` (with a name: that argument) read the
 * tool's arguments — an HTTP client would send them in the path, query or body; `@Req()`, `@Headers()` and
 * `@Ip()` read the HTTP request that carried the call. Pipes apply as on the route.
 */
export const routeParamsOfCall = {
  exchangeKeyForValue(type: number, data: unknown, [req, , call]: [HttpRequest, unknown, McpCall]): unknown {
    const kind = String(type);
    const field = typeof data === 'string' ? data : undefined;
    if (ARGUMENTS.has(kind)) return field ? (call.args as Record<string, unknown>)[field] : call.args;
    if (kind === REQUEST) return req;
    if (kind === HEADERS) return field ? req.headers?.[field.toLowerCase()] : req.headers;
    if (kind === IP) return req.ip;
    return undefined;
  },
};

/**
 * A route parameter decorator a tool method cannot have (`@Res()`, `@Next()`, `@Session()`, `@UploadedFile()`,
 * `@HostParam()`, …: a tool call has none of these): its position, or `undefined`.
 */
export function unsupportedRouteParam(cls: Function, methodName: string): number | undefined {
  const params = (Reflect.getMetadata(PARAM_METADATA_KEY, cls, methodName) ?? {}) as Record<string, { index: number }>;
  for (const [key, { index }] of Object.entries(params)) {
    const kind = key.split(':')[0]!;
    // Custom decorators (`createParamDecorator`) carry a non-numeric kind and read the call themselves.
    if (!/^\d+$/.test(kind)) continue;
    if (!ARGUMENTS.has(kind) && kind !== REQUEST && kind !== HEADERS && kind !== IP) return index;
  }
  return undefined;
}
