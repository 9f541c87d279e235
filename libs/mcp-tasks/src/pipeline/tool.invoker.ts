import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { McpScopesGuard } from '../guards/mcp-scopes.guard.js';
import { MCP_CONTEXT_TYPE, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { McpTelemetryInterceptor } from '../telemetry/mcp-telemetry.interceptor.js';
import { NestPipelines } from './nest-pipelines.js';

type Step = (args: object, ctx: ToolContext) => Promise<unknown>;

/** A tool's Nest pipeline in two halves, so the guards run in the request even when the method runs later. */
export interface ToolPipeline {
  /** The guards (global, class, the scopes guard, the method's own): in the request, before any task exists. */
  authorize: Step;
  /** Interceptors (telemetry first), pipes, the method and exception filters: the run, in the request or a task. */
  run: Step;
  /** The tool's `prepare` step, through the same interceptors and filters. */
  prepare?: Step;
}

/**
 * Runs tool methods as Nest runs a controller method (guards → interceptors → pipes → method, exception
 * filters around), in an `ExecutionContext` of type `mcp` whose arguments are `[args, ToolContext]`.
 */
@Injectable()
export class ToolInvoker {
  private readonly pipelines = new WeakMap<ToolDefinition, ToolPipeline>();

  constructor(
    private readonly nest: NestPipelines,
    @Inject(McpScopesGuard) private readonly scopes: CanActivate,
    private readonly telemetry: McpTelemetryInterceptor,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  /** The tool's pipeline, built on first use: by then the app has registered its global enhancers. */
  pipelineFor(tool: ToolDefinition): ToolPipeline {
    let pipeline = this.pipelines.get(tool);
    if (!pipeline) {
      pipeline = this.build(tool);
      this.pipelines.set(tool, pipeline);
    }
    return pipeline;
  }

  private build(tool: ToolDefinition): ToolPipeline {
    const proto = Object.getPrototypeOf(tool.instance) as Record<string, (...a: unknown[]) => unknown>;
    const { instance, methodName } = tool;
    const prepare = tool.options.prepare;
    const plain = this.nest.withoutGuards(instance, proto[methodName], methodName, [], MCP_CONTEXT_TYPE);
    const observed = this.options.telemetry
      ? this.nest.withoutGuards(instance, proto[methodName], methodName, [this.telemetry], MCP_CONTEXT_TYPE)
      : undefined;
    return {
      authorize: this.nest.guardsOnly(instance, proto[methodName], methodName, [this.scopes], MCP_CONTEXT_TYPE),
      // With nobody to observe the run (no SDK recording, no listener), the telemetry interceptor is left out.
      run: observed ? (args, ctx) => (this.telemetry.observing() ? observed : plain)(args, ctx) : plain,
      prepare: prepare ? this.nest.withoutGuards(instance, proto[prepare], prepare, [], MCP_CONTEXT_TYPE) : undefined,
    };
  }
}
