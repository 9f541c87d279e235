import { Catch, UseFilters, UseGuards, UseInterceptors, type ExceptionFilter } from '@nestjs/common';
import type { ExternalContextCreator } from '@nestjs/core';
import type { Method } from './enhanced-stand-in.js';

// Whether any of the app's code could read a request's HTTP objects in a pipeline: what decides whether the fast
// path must first make them the platform's (see `HttpContext.node`). Every doubt answers yes.

@Catch()
class Probe implements ExceptionFilter {
  catch(): void {}
}

/** The metadata key a Nest enhancer decorator writes, read off a probe (Nest exports the keys only internally). */
const keyOf = (decorate: (fn: Method) => unknown): string => {
  const fn = function probe(): void {};
  decorate(fn);
  const [key] = Reflect.getOwnMetadataKeys(fn) as unknown[];
  if (typeof key !== 'string') throw new Error('McpTasksModule: cannot find where Nest keeps enhancers');
  return key;
};
const ENHANCER_KEYS = [
  keyOf((fn) => UseGuards(Probe)(fn)),
  keyOf((fn) => UseInterceptors(Probe)(fn)),
  keyOf((fn) => UseFilters(Probe)(fn)),
];

/** The part of Nest's `ApplicationConfig` read here (public getters there). */
interface AppConfig {
  getGlobalGuards(): unknown[];
  getGlobalRequestGuards(): unknown[];
  getGlobalInterceptors(): unknown[];
  getGlobalRequestInterceptors(): unknown[];
  getGlobalFilters(): unknown[];
  getGlobalRequestFilters(): unknown[];
}
type Getter = keyof AppConfig;
const GUARDS_AND_INTERCEPTORS: Getter[] = [
  'getGlobalGuards',
  'getGlobalRequestGuards',
  'getGlobalInterceptors',
  'getGlobalRequestInterceptors',
];
const ALL: Getter[] = [...GUARDS_AND_INTERCEPTORS, 'getGlobalFilters', 'getGlobalRequestFilters'];

/**
 * Whether the app registered any of these global enhancers (`useGlobal*`, `APP_*`, request-scoped ones too), read
 * from the config Nest's context creators hold; yes when this Nest keeps it elsewhere.
 */
function anyGlobal(ecc: ExternalContextCreator, getters: Getter[]): boolean {
  const holder = (ecc as unknown as { guardsContextCreator?: { config?: Partial<AppConfig> } }).guardsContextCreator;
  const config = holder?.config;
  if (!config || !ALL.every((g) => typeof config[g] === 'function')) return true;
  return getters.some((g) => (config as AppConfig)[g]().length > 0);
}

/** Whether the app has global guards or interceptors: what runs around an MCP request that calls no tool. */
export const hasAppWideEnhancers = (ecc: ExternalContextCreator): boolean => anyGlobal(ecc, GUARDS_AND_INTERCEPTORS);

/** Whether the app's enhancers run around a method: global guards, interceptors or filters, its class's or its own. */
export const hasEnhancersAround = (ecc: ExternalContextCreator, cls: object, method: Method): boolean =>
  anyGlobal(ecc, ALL) ||
  ENHANCER_KEYS.some((key) => hasItems(Reflect.getMetadata(key, cls)) || hasItems(Reflect.getMetadata(key, method)));

const hasItems = (value: unknown): boolean => Array.isArray(value) && value.length > 0;
