import { Inject, Injectable } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ExternalContextCreator } from '@nestjs/core';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { McpScopesGuard } from '../guards/mcp-scopes.guard.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { MCP_TASKS_OPTIONS, MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import { McpTelemetryInterceptor } from '../telemetry/mcp-telemetry.interceptor.js';

type Runner = (args: object, ctx: ToolContext) => Promise<unknown>;

/** The two halves of a tool's Nest pipeline, built once per tool. */
export interface CompiledTool {
  /** Guards only: runs in the request, before any argument is acted on or any task exists. */
  authorize: Runner;
  /** Interceptors, pipes, the method and exception filters: the run itself (in the request or in a task). */
  run: Runner;
  /** The tool's `prepare` step, through the same interceptors and filters. */
  prepare?: Runner;
}

/** No HTTP parameter decorator applies to a tool; only custom ones (`@ToolContext()`, `@ToolArgs()`). */
const noHttpParams = { exchangeKeyForValue: (): undefined => undefined };

/**
 * Runs tool methods through Nest's own enhancer pipeline (ExternalContextCreator), in the order a
 * controller would: guards → interceptors → pipes → method, with exception filters around.
 * Guards are split off so they run in the request even when the method runs later, as a task.
 */
@Injectable()
export class ToolInvoker {
  private readonly compiled = new WeakMap<ToolDefinition, CompiledTool>();

  constructor(
    private readonly ecc: ExternalContextCreator,
    private readonly scopes: McpScopesGuard,
    private readonly telemetry: McpTelemetryInterceptor,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  for(tool: ToolDefinition): CompiledTool {
    let c = this.compiled.get(tool);
    if (!c) {
      c = this.compile(tool);
      this.compiled.set(tool, c);
    }
    return c;
  }

  private compile(tool: ToolDefinition): CompiledTool {
    const proto = Object.getPrototypeOf(tool.instance) as Record<string, (...a: unknown[]) => unknown>;
    const method = proto[tool.methodName];
    return {
      authorize: this.guardsOnly(tool.instance, method, tool.methodName),
      run: this.create(tool.instance, this.options.telemetry ? this.withTelemetry(method) : method, tool.methodName),
      prepare: tool.options.prepare
        ? this.create(tool.instance, proto[tool.options.prepare], tool.options.prepare)
        : undefined,
    };
  }

  private create(instance: object, method: (...a: unknown[]) => unknown, name: string): Runner {
    return this.ecc.create(
      instance,
      method,
      name,
      ROUTE_ARGS_METADATA,
      noHttpParams,
      undefined,
      undefined,
      { guards: false, interceptors: true, filters: true },
      MCP_CONTEXT_TYPE,
    ) as Runner;
  }

  /** The method behind a wrapper that carries its metadata, with the telemetry interceptor first. */
  private withTelemetry(method: (...a: unknown[]) => unknown): (...a: unknown[]) => unknown {
    const wrapper = function (this: unknown, ...args: unknown[]): unknown {
      return method.apply(this, args);
    };
    copyMetadata(method, wrapper);
    const own = (Reflect.getMetadata(INTERCEPTORS_METADATA, method) as unknown[] | undefined) ?? [];
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [this.telemetry, ...own], wrapper);
    return wrapper;
  }

  /**
   * A stand-in callback carrying the method's metadata, so Nest finds the same guards (global,
   * class, then the scopes guard and the method's own), but calling it does nothing. The metadata
   * key has no params, so no pipe runs twice.
   */
  private guardsOnly(instance: object, method: (...a: unknown[]) => unknown, name: string): Runner {
    const probe = function guardProbe(): void {};
    copyMetadata(method, probe);
    const own = (Reflect.getMetadata(GUARDS_METADATA, method) as unknown[] | undefined) ?? [];
    Reflect.defineMetadata(GUARDS_METADATA, [this.scopes, ...own], probe);
    return this.ecc.create(
      instance,
      probe,
      name,
      'mcp-tasks:no-params',
      noHttpParams,
      undefined,
      undefined,
      { guards: true, interceptors: false, filters: false },
      MCP_CONTEXT_TYPE,
    ) as Runner;
  }
}

function copyMetadata(from: object, to: object): void {
  for (const key of Reflect.getMetadataKeys(from)) Reflect.defineMetadata(key, Reflect.getMetadata(key, from), to);
}
