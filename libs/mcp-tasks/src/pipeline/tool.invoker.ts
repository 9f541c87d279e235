import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import { ContextIdFactory, ModuleRef, type ContextId } from '@nestjs/core';
import type { HttpContext } from '../common/http-context.interface.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { McpScopesGuard } from '../guards/mcp-scopes.guard.js';
import { MCP_CONTEXT_TYPE, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import { McpTelemetryInterceptor } from '../telemetry/mcp-telemetry.interceptor.js';
import { resultOf } from '../tools/tool-result.resolver.js';
import { NestPipelines, type Pipeline } from './nest-pipelines.js';

type Step = (args: object, ctx: ToolContext) => Promise<unknown>;

/**
 * A tool's Nest pipeline in two halves, so the guards run in the request even when the method runs later; bound to
 * the HTTP request of one call (what `switchToHttp()` reads) and, for a request-scoped provider, to the instance
 * made for it (a task keeps it).
 */
export interface ToolPipeline {
  /** The guards (global, class, the scopes guard, the method's own): in the request, before any task exists. */
  authorize: Step;
  /**
   * Interceptors (global, telemetry, the tool's own), pipes, the method and filters: in the request or a task. Its
   * value is the method's made a `CallToolResult` (one that cannot be is `-32603`, logged with the tool's name).
   */
  run: (args: object, ctx: ToolContext) => Promise<CallToolResult>;
  /** The tool's `prepare` step, through the same interceptors and filters. */
  prepare?: Step;
}

/** `appCode`: whether the app's code runs in them (else they get Node's objects on the fast path). */
type Pipelines = { authorize: Pipeline; run: Pipeline; prepare?: Pipeline; appCode: boolean };

/**
 * Runs tool methods as Nest runs a controller method (guards → interceptors → pipes → method, exception filters
 * around), in an `ExecutionContext` of type `mcp` whose arguments are `[req, res, McpCall]`.
 */
@Injectable()
export class ToolInvoker {
  private readonly pipelines = new WeakMap<ToolDefinition, Pipelines>();

  constructor(
    private readonly nest: NestPipelines,
    @Inject(McpScopesGuard) private readonly scopes: CanActivate,
    private readonly telemetry: McpTelemetryInterceptor,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** The tool's pipeline for one call (`call` carries method, id, params and principal). */
  async pipelineFor(tool: ToolDefinition, http: HttpContext, call: McpCall): Promise<ToolPipeline> {
    let built = tool.requestScoped ? undefined : this.pipelines.get(tool);
    if (!built) {
      built = tool.requestScoped ? await this.forRequest(tool, http) : this.build(tool, tool.instance);
      if (!tool.requestScoped) this.pipelines.set(tool, built);
    }
    const objects = built.appCode || !http.node ? http : http.node;
    const bind =
      (p: Pipeline): Step =>
      (args, context) =>
        p(objects.req, objects.res, {
          method: call.method,
          id: call.id,
          params: call.params,
          principal: call.principal,
          tool: tool.name,
          args,
          context,
        });
    const run = bind(built.run);
    return {
      authorize: bind(built.authorize),
      run: async (args, context) => resultOf(tool, await run(args, context)),
      prepare: built.prepare && bind(built.prepare),
    };
  }

  /** A request-scoped provider's instance for this HTTP request (`REQUEST` is its request), and its pipelines. */
  private async forRequest(tool: ToolDefinition, http: HttpContext): Promise<Pipelines> {
    const req = http.req as object;
    const id = ContextIdFactory.getByRequest(req);
    this.moduleRef.registerRequestByContextId(req, id);
    const instance = await this.moduleRef.resolve<unknown, object>(tool.token, id, { strict: false });
    return this.build(tool, instance, id);
  }

  private build(tool: ToolDefinition, instance: object, id?: ContextId): Pipelines {
    const proto = Object.getPrototypeOf(instance) as Record<string, (...a: unknown[]) => unknown>;
    const { methodName } = tool;
    const prepare = tool.options.prepare;
    const guards = [this.scopes];
    const plain = this.nest.withoutGuards(instance, proto[methodName], methodName, [], MCP_CONTEXT_TYPE, id);
    const observed = this.options.telemetry
      ? this.nest.withoutGuards(instance, proto[methodName], methodName, [this.telemetry], MCP_CONTEXT_TYPE, id)
      : undefined;
    const appCode =
      id !== undefined ||
      this.scopes.constructor !== McpScopesGuard ||
      this.nest.runsAppCode(instance, proto[methodName], methodName) ||
      (!!prepare && this.nest.runsAppCode(instance, proto[prepare], prepare));
    return {
      appCode,
      authorize: this.nest.guardsOnly(instance, proto[methodName], methodName, guards, MCP_CONTEXT_TYPE, id),
      // With nobody to observe the run (no SDK recording, no listener), the telemetry interceptor is left out.
      run: observed ? (req, res, call) => (this.telemetry.observing() ? observed : plain)(req, res, call) : plain,
      prepare: prepare
        ? this.nest.withoutGuards(instance, proto[prepare], prepare, [], MCP_CONTEXT_TYPE, id)
        : undefined,
    };
  }
}
