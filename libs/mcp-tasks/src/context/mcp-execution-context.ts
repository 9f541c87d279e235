import type { ExecutionContext } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import { MCP_CONTEXT_TYPE, MCP_TASK_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import type { TaskRecord } from '../store/task.record.js';

/**
 * Reads an MCP call out of a guard's or interceptor's `ExecutionContext`. A tool run has type `mcp` and the
 * arguments `[args, ToolContext]`; an access to a task (`tasks/get|update|cancel`, listening) has type `mcp-task`
 * and the arguments `[task, principal]`.
 */
export const McpExecutionContext = {
  /** Whether this is a tool run. */
  isToolRun: (ec: ExecutionContext): boolean => ec.getType<string>() === MCP_CONTEXT_TYPE,
  /** A tool run's arguments: raw in a guard (guards run before validation), the validated DTO afterwards. */
  args: <T = Record<string, unknown>>(ec: ExecutionContext): T => ec.getArgByIndex(0) as T,
  /** A tool run's `ToolContext`. */
  toolContext: (ec: ExecutionContext): ToolContext => ec.getArgByIndex(1) as ToolContext,
  /** Whether this is an access to a task. */
  isTaskAccess: (ec: ExecutionContext): boolean => ec.getType<string>() === MCP_TASK_CONTEXT_TYPE,
  /** The task being accessed. */
  task: (ec: ExecutionContext): TaskRecord => ec.getArgByIndex(0) as TaskRecord,
  /** Who is calling, in a tool run or an access to a task. */
  principal: (ec: ExecutionContext): Principal =>
    ec.getType<string>() === MCP_TASK_CONTEXT_TYPE
      ? (ec.getArgByIndex(1) as Principal)
      : (ec.getArgByIndex(1) as ToolContext).principal,
};
