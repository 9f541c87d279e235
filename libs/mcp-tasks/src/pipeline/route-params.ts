import { Body, Headers, Ip, Param, Query, Req } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import { isRouteParamKind, paramKindOf, paramsOf } from './nest-internals.adapter.js';

/** `@Body()`, `@Query()`, `@Param()`: all read the tool's arguments (the whole object, or one property). */
const ARGUMENTS = new Set([paramKindOf(Body()), paramKindOf(Query()), paramKindOf(Param())]);
const REQUEST = paramKindOf(Req());
const HEADERS = paramKindOf(Headers());
const IP = paramKindOf(Ip());

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
  for (const { kind, index } of paramsOf(cls, methodName) ?? []) {
    // Custom decorators (`createParamDecorator`) read the call themselves.
    if (!isRouteParamKind(kind)) continue;
    if (!ARGUMENTS.has(kind) && kind !== REQUEST && kind !== HEADERS && kind !== IP) return index;
  }
  return undefined;
}
