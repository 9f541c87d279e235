import { Injectable, UseGuards, UseInterceptors, type CanActivate, type NestInterceptor } from '@nestjs/common';
import { ApplicationConfig, ExternalContextCreator, type ContextId } from '@nestjs/core';
import type { McpCall } from '../common/mcp-call.interface.js';
import { hasAppWideEnhancers, hasEnhancersAround } from './app-code.presence.js';
import { enhancedStandIn, type Method } from './enhanced-stand-in.js';
import { PARAM_METADATA_KEY, paramsOf } from './nest-internals.adapter.js';
import { callPassingStopsOn } from './stops-passed-on.js';
import { routeParamsOfCall } from './route-params.js';

/** A handler behind its Nest pipeline, called with its `ExecutionContext`'s arguments: `[req, res, McpCall]`. */
export type Pipeline = (req: unknown, res: unknown, call: McpCall, ...rest: unknown[]) => Promise<any>;

/** A metadata key nothing is stored under: no parameter decorators, so no pipes run. */
const NO_PARAMS = 'mcp-tasks:no-params';

interface Enhancers {
  guards: boolean;
  interceptors: boolean;
  filters: boolean;
}

/**
 * Builds handlers that run through Nest's own enhancer pipeline (`ExternalContextCreator`), the way Nest runs
 * a controller method: global guards, class guards, method guards; then interceptors, pipes, the method, with
 * exception filters around. The library's own enhancers are added with Nest's decorators on a stand-in, so the
 * app's classes are never changed. `contextId` is the request's, for a request-scoped tool provider. `config` holds
 * the app's global enhancers (the one Nest's context creators read).
 */
@Injectable()
export class NestPipelines {
  constructor(
    private readonly ecc: ExternalContextCreator,
    private readonly config: ApplicationConfig,
  ) {}

  /** Only the guards (`first` ahead of the method's own), in front of a stand-in that does nothing. */
  guardsOnly(instance: object, method: Method, name: string, first: CanActivate[], type: string, id?: ContextId) {
    const probe = enhancedStandIn(
      method,
      name,
      (fn) => UseGuards(...first)(fn),
      () => undefined,
    );
    // Its own name for Nest: Nest 11 caches a handler's parameter metadata by instance and name only, and this
    // pipeline has none, which the method's full pipeline must not inherit.
    const enhancers = { guards: true, interceptors: false, filters: false };
    return this.create(instance, probe, `${name}:guards`, NO_PARAMS, type, enhancers, id);
  }

  /**
   * No guards: interceptors (`first` ahead of the method's own), pipes and parameter decorators, filters. A method
   * without parameter decorators is called as `(args, ctx)`. It is called as the instance hands it out, as Nest calls
   * a controller's handler: an app's `instrument` (an APM agent's, e.g. @nestjs/observe) wraps it there; its metadata
   * is read off `method`, the prototype's.
   */
  withoutGuards(
    instance: object,
    method: Method,
    name: string,
    first: NestInterceptor[],
    type: string,
    id?: ContextId,
  ) {
    const decorated = paramsOf(instance.constructor, name) !== undefined;
    const handedOut: unknown = (instance as Record<string, unknown>)[name];
    const callee = typeof handedOut === 'function' ? (handedOut as Method) : method;
    const body = decorated
      ? function (this: unknown, ...params: unknown[]): unknown {
          return callPassingStopsOn(callee, this, params);
        }
      : function (this: unknown, _req: unknown, _res: unknown, call: McpCall): unknown {
          return callPassingStopsOn(callee, this, [call.args, call.context]);
        };
    const run = enhancedStandIn(method, name, (fn) => UseInterceptors(...first)(fn), body);
    return this.create(
      instance,
      run,
      name,
      PARAM_METADATA_KEY,
      type,
      { guards: false, interceptors: true, filters: true },
      id,
    );
  }

  /**
   * The app's global guards and interceptors around `handler` (no filters: what they throw is answered as a JSON-RPC
   * error by the caller), for MCP requests that reach no tool.
   */
  appWide(instance: object, handler: Method, type: string): Pipeline {
    return this.create(instance, handler, handler.name, NO_PARAMS, type, {
      guards: true,
      interceptors: true,
      filters: false,
    });
  }

  /** Whether the app has global guards or interceptors (asked once they are registered: on the first request). */
  hasAppWide(): boolean {
    return hasAppWideEnhancers(this.config);
  }

  /**
   * Whether any of the app's enhancers (global, `method`'s class's or its own) are around `method`: interceptors and
   * exception filters run in a tool run's pipeline besides pipes and the method. Guards count too although that
   * pipeline does not run them: a yes only keeps Nest's interceptor chain.
   */
  runsEnhancers(instance: object, method: Method): boolean {
    return hasEnhancersAround(this.config, instance.constructor, method);
  }

  /** Whether any of the app's code runs in `method`'s pipeline: enhancers (global or its own), parameter decorators. */
  runsAppCode(instance: object, method: Method, name: string): boolean {
    const cls = instance.constructor;
    return hasEnhancersAround(this.config, cls, method) || paramsOf(cls, name) !== undefined;
  }

  private create(
    instance: object,
    callback: Method,
    name: string,
    paramsKey: string,
    type: string,
    enhancers: Enhancers,
    contextId?: ContextId,
  ): Pipeline {
    return this.ecc.create(
      instance,
      callback,
      name,
      paramsKey,
      routeParamsOfCall,
      contextId,
      undefined,
      enhancers,
      type,
    ) as Pipeline;
  }
}
