import { SetMetadata } from '@nestjs/common';
import type { ToolContext } from '../common/tool-context.interface.js';
import { MCP_TOOL_METADATA } from '../mcp-tasks.constants.js';

/**
 * How a tool runs: always in the request, as a task when the client can, or only as a task.
 * @publicApi
 */
export type TaskPolicy = 'sync' | 'optional' | 'required';

/**
 * A policy chosen per call from the validated arguments and the caller's context.
 * @publicApi
 */
export type TaskPolicyFn = (args: any, ctx: ToolContext) => TaskPolicy | Promise<TaskPolicy>;

/**
 * A class-validator DTO, or `[Dto]` for an array of them.
 * @publicApi
 */
export type ToolOutput = (new (...args: any[]) => object) | [new (...args: any[]) => object];

/**
 * Options of `@McpTool`.
 * @publicApi
 */
export interface McpToolOptions {
  /**
   * Tool name on the wire (unique in the server: a duplicate fails startup).
   * @default the method's name
   */
  name?: string;
  /** Human-readable description, shown in `tools/list`. Required. */
  description: string;
  /**
   * Title shown by clients.
   * @default none
   */
  title?: string;
  /**
   * class-validator DTO of the arguments: they are validated before anything runs (`-32602` otherwise), and it
   * yields the `inputSchema` of `tools/list`.
   * @default no arguments (an empty object schema)
   */
  input?: new (...args: any[]) => object;
  /**
   * class-validator DTO of the result's `structuredContent` (`[Dto]`: an array of them): it yields the
   * `outputSchema` of `tools/list`, and a result that does not match it is never sent (the server logs it with the
   * tool's name; the client gets `-32603`, a task ends `failed`). Only `output` declares a schema: a method's
   * return type is not read (for an `async` method TypeScript records only `Promise`).
   * @default none (no `outputSchema`, nothing checked)
   */
  output?: ToolOutput;
  /**
   * Whether and when the tool runs as a task: `'sync'` (always in the request), `'optional'` (as a task when the
   * request declares the extension; `true` is another name for it), `'required'` (only as a task), or a function
   * choosing per call.
   * @default 'sync'
   */
  task?: TaskPolicy | true | TaskPolicyFn;
  /**
   * Name of a method on the same provider that runs in the original request before any task exists.
   * It receives `(args, ctx)` and may ask for input (an MRTR round); the task starts once it returns,
   * and sees its answers through `ctx.elicit/sample/roots` with the same keys.
   * @default none
   */
  prepare?: string;
  /**
   * Tool annotations, passed through to `tools/list`.
   * @default none
   */
  annotations?: Record<string, unknown>;
  /**
   * The method may run again from the start with the same arguments: when the instance running its task dies or
   * shuts down, another instance (or this one after a restart) takes the task over and runs it again, with the
   * answers given so far and the last `ctx.checkpoint`. Needs a tool that can run as a task (`task` other than
   * `'sync'`) and a store that can resume (`ResumableTasks`: the TypeORM store; on the memory store one warning at
   * startup, and such tasks end `failed` when their instance stops, as others do). See docs/tools.md, "Tasks that
   * survive their instance".
   * @default false (a task whose instance stops ends `failed`)
   */
  resume?: boolean;
  /**
   * With `resume`, how many attempts a task may have in all, the first one included: the takeover after the last
   * ends the task `failed`, saying it gave up. An integer ≥ 1.
   * @default 3
   */
  maxAttempts?: number;
}

/**
 * Exposes a provider (or controller) method as an MCP tool. The method is called as `(args, ctx)` (or with
 * `@ToolArgs()` / `@ToolCtx()` / `@Body()` / `@Param()` … parameters) through Nest's pipeline: its own guards,
 * interceptors, pipes and filters apply.
 * @publicApi
 */
export const McpTool = (options: McpToolOptions): MethodDecorator => SetMetadata(MCP_TOOL_METADATA, options);
