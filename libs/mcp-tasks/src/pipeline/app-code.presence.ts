import type { ApplicationConfig } from '@nestjs/core';
import type { Method } from './enhanced-stand-in.js';
import { hasEnhancers } from './nest-internals.adapter.js';

// Whether any of the app's code could read a request's HTTP objects in a pipeline: what decides whether the fast
// path must first make them the platform's (see `HttpContext.node`).

/**
 * Whether the app has global guards or interceptors (`useGlobal*`, `APP_*`, request-scoped ones too): what runs
 * around an MCP request that calls no tool. `config` is the app's (Nest's context creators read the same one).
 */
export const hasAppWideEnhancers = (config: ApplicationConfig): boolean =>
  config.getGlobalGuards().length > 0 ||
  config.getGlobalRequestGuards().length > 0 ||
  config.getGlobalInterceptors().length > 0 ||
  config.getGlobalRequestInterceptors().length > 0;

/** Whether the app's enhancers run around a method: global guards, interceptors or filters, its class's or its own. */
export const hasEnhancersAround = (config: ApplicationConfig, cls: object, method: Method): boolean =>
  hasAppWideEnhancers(config) ||
  config.getGlobalFilters().length > 0 ||
  config.getGlobalRequestFilters().length > 0 ||
  hasEnhancers(cls) ||
  hasEnhancers(method);
