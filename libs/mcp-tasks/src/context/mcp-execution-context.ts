import type { ExecutionContext } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { Principal } from '../common/principal.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import { MCP_CONTEXT_TYPE, MCP_TASK_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import type { TaskRecord } from '../store/task.record.js';

const callOf = (ec: ExecutionContext): McpCall | undefined =>
  ec.getType<string>() === MCP_CONTEXT_TYPE ? (ec.getArgByIndex(2) as McpCall) : undefined;

/**
 * Reads an MCP request out of a guard's, interceptor's or pipe's `ExecutionContext`. Type `mcp` (app-wide enhancers
 * on every MCP request, a tool's own enhancers on its calls) has the arguments `[req, res, McpCall]`, so
 * `switchToHttp()` reads the HTTP request that carried it; an access to a task by the ownership guard
 * (`tasks/get|update|cancel`, listening) has type `mcp-task` and the arguments `[task, principal]`.
 * @publicApi
 */
export const McpExecutionContext = {
  /** Whether this is an MCP request (type `mcp`): a tool call, or any other method behind the app-wide enhancers. */
  isMcp: (ec: ExecutionContext): boolean => ec.getType<string>() === MCP_CONTEXT_TYPE,
  /** Whether this is a tool call (type `mcp`, method `tools/call`, with a tool context). */
  isToolRun: (ec: ExecutionContext): boolean => callOf(ec)?.context !== undefined,
  /** The MCP request: method, id, params, principal (and tool, args, context in a tool call). */
  call: (ec: ExecutionContext): McpCall | undefined => callOf(ec),
  /** The JSON-RPC method of an `mcp` context. */
  method: (ec: ExecutionContext): string | undefined => callOf(ec)?.method,
  /** A tool call's arguments (as sent in guards; the validated DTO instance in interceptors, pipes and the method). */
  args: <T = Record<string, unknown>>(ec: ExecutionContext): T => callOf(ec)?.args as T,
  /** A tool call's `ToolContext`. */
  toolContext: (ec: ExecutionContext): ToolContext => callOf(ec)?.context as ToolContext,
  /** Whether this is an access to a task (the ownership guard's context). */
  isTaskAccess: (ec: ExecutionContext): boolean => ec.getType<string>() === MCP_TASK_CONTEXT_TYPE,
  /** The task being accessed. */
  task: (ec: ExecutionContext): TaskRecord => ec.getArgByIndex(0) as TaskRecord,
  /** Who is calling, in an MCP request or an access to a task. */
  principal: (ec: ExecutionContext): Principal =>
    ec.getType<string>() === MCP_TASK_CONTEXT_TYPE ? (ec.getArgByIndex(1) as Principal) : callOf(ec)!.principal,
};
