import { Injectable } from '@nestjs/common';
import type { HttpContext } from '../common/http-context.interface.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import type { CallToolResult } from '../protocol/wire.interface.js';
import { resultOf } from '../tools/tool-result.resolver.js';
import { HandlerInvoker, type HandlerPipeline, type HandlerTarget } from './handler.invoker.js';

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

/**
 * Runs tool methods through their Nest pipeline (`HandlerInvoker`, observed by the telemetry interceptor), and makes
 * their values tool results.
 */
@Injectable()
export class ToolInvoker {
  private readonly targets = new WeakMap<ToolDefinition, HandlerTarget>();

  constructor(private readonly handlers: HandlerInvoker) {}

  /** The tool's pipeline for one call (`call` carries method, id, params and principal). */
  pipelineFor(tool: ToolDefinition, http: HttpContext, call: McpCall): ToolPipeline | Promise<ToolPipeline> {
    let target = this.targets.get(tool);
    if (!target) {
      const { instance, token, requestScoped, methodName } = tool;
      target = { instance, token, requestScoped, methodName, prepareName: tool.options.prepare, observed: true };
      this.targets.set(tool, target);
    }
    const base = { method: call.method, id: call.id, params: call.params, principal: call.principal, tool: tool.name };
    const pipeline = this.handlers.pipelineFor(target, http, base);
    // A value unless the provider is request-scoped: no promise per call to wait for a pipeline already built.
    return pipeline instanceof Promise ? pipeline.then((p) => withResult(tool, p)) : withResult(tool, pipeline);
  }
}

/** `pipeline` with its run's value made a `CallToolResult` (one `then`: each promise costs under an SDK's hooks). */
function withResult(tool: ToolDefinition, pipeline: HandlerPipeline): ToolPipeline {
  const run = pipeline.run;
  return { ...pipeline, run: (args, context) => run(args, context).then((value) => resultOf(tool, value)) };
}
