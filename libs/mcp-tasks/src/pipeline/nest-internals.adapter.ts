import {
  Catch,
  createParamDecorator,
  UseFilters,
  UseGuards,
  UseInterceptors,
  type ExceptionFilter,
  type RequestMethod,
} from '@nestjs/common';
import type { ApplicationConfig } from '@nestjs/core';
// The library's one deep import of Nest: no public API says where Nest routes a controller's path.
import { RoutePathFactory } from '@nestjs/core/router/route-path-factory.js';

/*
 * What the library reads of Nest that Nest does not export publicly, in this file only: where its decorators keep
 * their metadata and in what layout, and how it turns a controller's path into routes. Keys are found by applying
 * Nest's public decorators to probes, so no internal constant's name or value is assumed. `nest-internals.probe.ts`
 * checks every shape read here (its spec on the repository's Nest; the adoption test on Nest 11 and 12 apps).
 */

/** The one metadata key `keys` finds after a Nest decorator was applied to a probe. */
function onlyKey(keys: unknown[]): string {
  if (keys.length !== 1 || typeof keys[0] !== 'string') {
    throw new Error('McpTasksModule: cannot find where this Nest keeps decorators (see pipeline/nest-internals)');
  }
  return keys[0];
}

/**
 * Where Nest keeps a method's parameter decorators (`@ToolArgs()`, `@Body()`, an app's own, …): an object keyed
 * `<kind>:<index>` on the class, per method. `ExternalContextCreator.create` reads it under this key.
 */
export const PARAM_METADATA_KEY = ((): string => {
  class Probe {
    probe(): void {}
  }
  createParamDecorator(() => undefined)()(Probe.prototype, 'probe', 0);
  return onlyKey(Reflect.getOwnMetadataKeys(Probe, 'probe'));
})();

/** One parameter decorator of a method: its kind and position. */
export interface ParamEntry {
  /** A number (as a string) for Nest's route decorators (`@Body()`, `@Req()`, …); anything else for a custom one. */
  kind: string;
  index: number;
}

/** The parameter decorators of `cls.prototype[method]`, in no particular order; `undefined` when it has none. */
export function paramsOf(cls: Function, method: string): ParamEntry[] | undefined {
  const params = Reflect.getMetadata(PARAM_METADATA_KEY, cls, method) as Record<string, { index: number }> | undefined;
  if (params === undefined) return undefined;
  return Object.entries(params).map(([key, { index }]) => ({ kind: key.split(':')[0]!, index }));
}

/** The kind Nest records for one of its route parameter decorators (`Body()`, `Req()`, …). */
export function paramKindOf(decorator: ParameterDecorator): string {
  class Probe {
    probe(): void {}
  }
  decorator(Probe.prototype, 'probe', 0);
  const [entry] = paramsOf(Probe, 'probe') ?? [];
  if (!entry) throw new Error('McpTasksModule: cannot read a parameter decorator (see pipeline/nest-internals)');
  return entry.kind;
}

/** Whether a kind is one of Nest's route decorators (custom decorators made by `createParamDecorator` are not). */
export const isRouteParamKind = (kind: string): boolean => /^\d+$/.test(kind);

@Catch()
class ProbeFilter implements ExceptionFilter {
  catch(): void {}
}

/** Where `@UseGuards`, `@UseInterceptors` and `@UseFilters` keep their lists, on a class or a method. */
const ENHANCER_KEYS = [UseGuards, UseInterceptors, UseFilters].map((use) => {
  const probe = function probe(): void {};
  use(ProbeFilter)(probe);
  return onlyKey(Reflect.getOwnMetadataKeys(probe));
});

/** Whether a class or method has guards, interceptors or exception filters of its own (by Nest's decorators). */
export const hasEnhancers = (target: object): boolean =>
  ENHANCER_KEYS.some((key) => {
    const list: unknown = Reflect.getMetadata(key, target);
    return Array.isArray(list) && list.length > 0;
  });

/** What decides where Nest routes a controller (`RoutePathFactory`'s input, in Nest 11 and 12 alike). */
export type RouteOf = Parameters<RoutePathFactory['create']>[0];

/** The paths Nest routes a controller on, for `method` (a `RequestMethod`), as it does for its own controllers. */
export const routePaths = (config: ApplicationConfig, route: RouteOf, method: RequestMethod): string[] =>
  new RoutePathFactory(config).create(route, method);
