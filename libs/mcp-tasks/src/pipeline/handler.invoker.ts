import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import { ContextIdFactory, ModuleRef, type ContextId } from '@nestjs/core';
import type { HttpContext } from '../common/http-context.interface.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import { McpScopesGuard } from '../guards/mcp-scopes.guard.js';
import { MCP_CONTEXT_TYPE, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { McpTelemetryInterceptor } from '../telemetry/mcp-telemetry.interceptor.js';
import { NestPipelines, type Pipeline } from './nest-pipelines.js';

/** A decorated method (a tool, a resource, a prompt, …) as discovery found it. */
export interface HandlerTarget {
  /** The provider's instance (a stand-in of its class when request-scoped). */
  instance: object;
  token: string | symbol | Function;
  requestScoped: boolean;
  methodName: string;
  /** A step run before the method through the same interceptors and filters (a tool's `prepare`). */
  prepareName?: string;
  /** Whether the library's telemetry interceptor (an `execute_tool` span, `mcp.task.*` events) wraps its runs. */
  observed?: boolean;
}

/** A step of the pipeline: called with the arguments and the context the `McpCall` carries. */
export type HandlerStep = (args: object, ctx: ToolContext) => Promise<unknown>;

/** A method's pipeline in two halves, bound to one request's HTTP objects and `McpCall`. */
export interface HandlerPipeline {
  /** The guards (global, class, the scopes guard, the method's own): before anything is read or run. */
  authorize: HandlerStep;
  /** Interceptors (global, telemetry when observed, the method's own), pipes, the method and filters. */
  run: HandlerStep;
  prepare?: HandlerStep;
}

/** What one call carries besides its arguments and context (`tool`, `resource` or `prompt` among them). */
export type CallBase = Omit<McpCall, 'args' | 'context'>;

/** `appCode`: whether the app's code runs in them (else they get Node's objects on the fast path). */
type Pipelines = { authorize: Pipeline; run: Pipeline; prepare?: Pipeline; appCode: boolean };

/**
 * Runs decorated methods as Nest runs a controller method (guards → interceptors → pipes → method, exception filters
 * around), in an `ExecutionContext` of type `mcp` whose arguments are `[req, res, McpCall]`. The scopes guard
 * (`@RequiredScopes`) runs first among the guards of every such method.
 */
@Injectable()
export class HandlerInvoker {
  private readonly pipelines = new WeakMap<HandlerTarget, Pipelines>();

  constructor(
    private readonly nest: NestPipelines,
    @Inject(McpScopesGuard) private readonly scopes: CanActivate,
    private readonly telemetry: McpTelemetryInterceptor,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The target's pipeline for one call: a value, unless the provider is request-scoped (its instance is resolved). */
  pipelineFor(target: HandlerTarget, http: HttpContext, call: CallBase): HandlerPipeline | Promise<HandlerPipeline> {
    if (target.requestScoped) return this.forRequest(target, http).then((built) => this.bound(built, http, call));
    let built = this.pipelines.get(target);
    if (!built) this.pipelines.set(target, (built = this.build(target, target.instance)));
    return this.bound(built, http, call);
  }

  private bound(built: Pipelines, http: HttpContext, call: CallBase): HandlerPipeline {
    const objects = built.appCode || !http.node ? http : http.node;
    const bind =
      (p: Pipeline): HandlerStep =>
      (args, context) =>
        p(objects.req, objects.res, { ...call, args, context });
    return {
      authorize: bind(built.authorize),
      run: bind(built.run),
      prepare: built.prepare && bind(built.prepare),
    };
  }

  /** A request-scoped provider's instance for this HTTP request (`REQUEST` is its request), and its pipelines. */
  private async forRequest(target: HandlerTarget, http: HttpContext): Promise<Pipelines> {
    const req = http.req as object;
    const id = ContextIdFactory.getByRequest(req);
    this.moduleRef.registerRequestByContextId(req, id);
    const instance = await this.moduleRef.resolve<unknown, object>(target.token, id, { strict: false });
    return this.build(target, instance, id);
  }

  private build(target: HandlerTarget, instance: object, id?: ContextId): Pipelines {
    const proto = Object.getPrototypeOf(instance) as Record<string, (...a: unknown[]) => unknown>;
    const { methodName, prepareName: prepare } = target;
    const plain = this.nest.withoutGuards(instance, proto[methodName], methodName, [], MCP_CONTEXT_TYPE, id);
    const appCode =
      id !== undefined ||
      this.scopes.constructor !== McpScopesGuard ||
      this.nest.runsAppCode(instance, proto[methodName], methodName) ||
      (!!prepare && this.nest.runsAppCode(instance, proto[prepare], prepare));
    return {
      appCode,
      authorize: this.nest.guardsOnly(instance, proto[methodName], methodName, [this.scopes], MCP_CONTEXT_TYPE, id),
      run: this.options.telemetry && target.observed ? this.observed(instance, methodName, plain, id) : plain,
      prepare: prepare
        ? this.nest.withoutGuards(instance, proto[prepare], prepare, [], MCP_CONTEXT_TYPE, id)
        : undefined,
    };
  }

  /**
   * The run with the telemetry interceptor first among the tool's interceptors; with nobody to observe it (no SDK
   * recording, no listener) the interceptor is left out. When none of the app's enhancers are around the method, the
   * interceptor would be alone in Nest's interceptor chain, so the invoker calls it around the plain pipeline itself:
   * the same span and events, without that chain's `defer`s, `AsyncResource`s and `lastValueFrom`s.
   */
  private observed(instance: object, name: string, plain: Pipeline, id?: ContextId): Pipeline {
    const proto = Object.getPrototypeOf(instance) as Record<string, (...a: unknown[]) => unknown>;
    if (!this.nest.runsEnhancers(instance, proto[name])) {
      return (req, res, call) =>
        this.telemetry.observing()
          ? this.telemetry.around(call.context!, () => plain(req, res, call))
          : plain(req, res, call);
    }
    const chain = this.nest.withoutGuards(instance, proto[name], name, [this.telemetry], MCP_CONTEXT_TYPE, id);
    return (req, res, call) => (this.telemetry.observing() ? chain : plain)(req, res, call);
  }
}
