export { McpTasksModule } from './mcp-tasks.module.js';
export type { McpServerIdentity, McpTasksModuleOptions } from './options/mcp-tasks-options.interface.js';
export { MCP_TASKS_OPTIONS, type ResolvedOptions } from './options/resolved-options.js';
export { McpTool, type McpToolOptions, type TaskPolicy, type TaskPolicyFn } from './decorators/mcp-tool.decorator.js';
export { ToolArgs, ToolContext, type ElicitResult, type Principal } from './context/tool-context.js';
export { TaskCancelledError } from './context/task-cancelled.error.js';
export { McpContext, MCP_CONTEXT_TYPE } from './invoker/mcp-execution-context.js';
export { ToolError } from './tools/tool-error.js';
export { RpcError } from './protocol/rpc-error.js';
export { RpcCode, TASKS_EXTENSION, MODERN_PROTOCOL_VERSION, META } from './protocol/protocol.constants.js';
export type { TaskStatus, InputRequest, InputRequests, CallToolResult, TaskError } from './protocol/wire.types.js';
export { TaskStore } from './store/task-store.interface.js';
export type { TaskRecord, TaskChange, TaskLimits, CreateOutcome, UpdateOutcome } from './store/task.record.js';
export type {
  TaskCursor,
  TaskListQuery,
  TaskListPage,
  TaskSummary,
  TaskCountsQuery,
  TaskCounts,
  TaskActivityQuery,
  TaskActivity,
} from './store/task-queries.js';
export { applyTaskChange, isLive } from './store/apply-task-change.js';
export { MemoryTaskStore } from './store/memory-task.store.js';
export { TaskEventBus, type TaskEvent } from './events/task-event-bus.interface.js';
export { LocalTaskEventBus } from './events/local-task-event.bus.js';
export { ToolRegistry } from './discovery/tool.registry.js';
export type { McpAuthOptions } from './auth/mcp-auth-options.interface.js';
export { RequiredScopes } from './auth/required-scopes.decorator.js';
export { McpScopesGuard } from './auth/mcp-scopes.guard.js';
export { TaskOwnershipGuard } from './auth/task-ownership.guard.js';
export {
  McpTaskEvents,
  type McpTaskStartEvent,
  type McpTaskStopEvent,
  type McpTaskExceptionEvent,
  type McpRunOutcome,
} from './telemetry/telemetry.events.js';
export { McpTelemetryInterceptor } from './telemetry/mcp-telemetry.interceptor.js';
