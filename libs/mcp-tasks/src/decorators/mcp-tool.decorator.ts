import { SetMetadata } from '@nestjs/common';
import { MCP_TOOL_METADATA } from '../mcp-tasks.constants.js';
import type { ToolContext } from '../common/tool-context.interface.js';

/** How a tool runs: always in the request, as a task when the client can, or only as a task. */
export type TaskPolicy = 'sync' | 'optional' | 'required';

/** A policy chosen per call from the validated arguments and the caller's context. */
export type TaskPolicyFn = (args: any, ctx: ToolContext) => TaskPolicy | Promise<TaskPolicy>;

export interface McpToolOptions {
  /** Tool name on the wire. Default: the method name. */
  name?: string;
  /** Human-readable description, shown in `tools/list`. */
  description: string;
  /** Title shown by clients. Default: none. */
  title?: string;
  /** class-validator DTO for the arguments; it also yields the `inputSchema`. Default: no arguments. */
  input?: new (...args: any[]) => object;
  /** Whether and when the tool runs as a task. Default `'sync'`. */
  task?: TaskPolicy | TaskPolicyFn;
  /**
   * Name of a method on the same provider that runs in the original request before any task exists.
   * It receives `(args, ctx)` and may ask for input (an MRTR round); the task starts once it returns,
   * and sees its answers through `ctx.elicit/sample/roots` with the same keys.
   */
  prepare?: string;
  /** Tool annotations passed through to `tools/list`. */
  annotations?: Record<string, unknown>;
}

/** Exposes a provider method as an MCP tool. */
export const McpTool = (options: McpToolOptions): MethodDecorator => SetMetadata(MCP_TOOL_METADATA, options);
