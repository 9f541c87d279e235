export { McpTasksModule } from './mcp-tasks.module.js';
export type { McpServerIdentity, McpTasksModuleOptions } from './options/mcp-tasks-options.interface.js';
export type { TypeOrmStoreConfig } from './store/typeorm/typeorm-store.config.js';
export type { RedisConnectionSettings, RedisStoreConfig } from './store/redis/redis-store.config.js';
export type { NatsBusConfig } from './events/nats-bus.config.js';
export type { NatsBusConnection, NatsBusConnectionOptions } from './events/nats-bus.connection.js';
export type { PostgresBusConfig } from './events/postgres-bus.config.js';
export type { RedisBusConfig } from './events/redis-bus.config.js';
export type { RedisBusClient, RedisBusConnectionOptions } from './events/redis-bus.client.js';
export type { ResolvedOptions } from './options/resolved-options.interface.js';
export {
  MCP_TASKS_OPTIONS,
  MCP_CONTEXT_TYPE,
  MCP_TASK_CONTEXT_TYPE,
  RpcCode,
  TASKS_EXTENSION,
} from './mcp-tasks.constants.js';
export { McpTool, type McpToolOptions, type TaskPolicy, type TaskPolicyFn } from './decorators/mcp-tool.decorator.js';
export { RequiredScopes } from './decorators/required-scopes.decorator.js';
export { ToolArgs } from './decorators/tool-args.decorator.js';
export { McpHeader } from './decorators/mcp-header.decorator.js';
export { ToolCtx } from './decorators/tool-ctx.decorator.js';
export { McpResource, type McpResourceOptions } from './resources/mcp-resource.decorator.js';
export { McpResourceTemplate, type McpResourceTemplateOptions } from './resources/mcp-resource-template.decorator.js';
export type { ResourceCacheHint } from './resources/resource-cache.interface.js';
export type { ResourceContents } from './resources/resource-contents.js';
export { ResourceRegistry } from './resources/resource.registry.js';
export { McpResourceNotifier } from './resources/mcp-resource.notifier.js';
export { McpPromptNotifier } from './prompts/mcp-prompt.notifier.js';
export { McpPrompt, type McpPromptOptions } from './prompts/mcp-prompt.decorator.js';
export type { PromptMessage, PromptReturn } from './prompts/prompt-message.js';
export { McpCompletion, type McpCompletionOptions } from './completions/mcp-completion.decorator.js';
export type { CompletionContext, CompletionValues } from './completions/completion-context.js';
export { InjectTaskEventBus, InjectTaskStore } from './decorators/inject.decorators.js';
export type { ToolContext, ElicitResult } from './common/tool-context.interface.js';
export type { LoggingLevel } from './common/logging-level.js';
export type { Principal } from './common/principal.interface.js';
export { McpExecutionContext } from './context/mcp-execution-context.js';
export { TaskCancelledError } from './context/task-cancelled.error.js';
export { MAX_CHECKPOINT_BYTES } from './context/checkpoint.value.js';
export { ToolError } from './tools/tool.error.js';
export { audioContent, imageContent, resourceContent, type BinaryData } from './tools/content.helpers.js';
export type { ContentBlock } from './tools/content-block.js';
export type { ToolOutput } from './decorators/mcp-tool.decorator.js';
export { RpcError } from './protocol/rpc.error.js';
export type { TaskStatus, InputRequest, InputRequests, CallToolResult, TaskError } from './protocol/wire.interface.js';
export { TaskStore } from './store/task-store.interface.js';
export type { TaskListing } from './store/capabilities/task-listing.interface.js';
export type { TaskMirrors } from './store/capabilities/task-mirrors.interface.js';
export type { LapsedRuns, ResumableTasks } from './store/capabilities/resumable-tasks.interface.js';
export type { TaskQueries } from './store/capabilities/task-queries.interface.js';
export type { SharedTaskStore } from './store/capabilities/shared-task-store.interface.js';
export type { PostgresConnectionConfig } from './store/postgres-connection.config.js';
export type {
  TaskRecord,
  TaskChange,
  TaskLimits,
  CreateOutcome,
  UpdateOutcome,
  TaskGeneration,
  InputChannel,
  TaskUpstream,
  TaskResume,
  ResumedCall,
  Fenced,
} from './store/task.record.js';
export type {
  TaskCursor,
  OwnerTasksQuery,
  TaskListQuery,
  TaskListPage,
  TaskSummary,
  TaskCountsQuery,
  TaskCounts,
  TaskActivityQuery,
  TaskActivity,
} from './store/task-queries.interface.js';
export { applyTaskChange, isLive } from './store/apply-task-change.js';
export { ownerKeyForms, ownerKeyOnServer, serverKeyNeedle, subjectKeyPrefixes } from './owner/owner-key.js';
export { MemoryTaskStore } from './store/memory/memory-task.store.js';
export { RedisTaskStore } from './store/redis/redis-task.store.js';
export {
  TaskEventBus,
  type QuestionAnswer,
  type FeatureChange,
  type TaskEvent,
  type TaskEventBusHealth,
} from './events/task-event-bus.interface.js';
export { LocalTaskEventBus } from './events/local-task-event.bus.js';
export { taskEventTopics } from './events/task-event.topics.js';
export { ToolRegistry } from './discovery/tool.registry.js';
export type { McpAuthOptions, McpAuthPrincipal } from './options/mcp-auth-options.interface.js';
export type { McpUpstreamAuth, McpUpstreamOptions, McpUpstreamTool } from './options/mcp-upstream-options.interface.js';
export { McpScopesGuard } from './guards/mcp-scopes.guard.js';
export { TaskOwnershipGuard } from './guards/task-ownership.guard.js';
export {
  McpTaskEvents,
  type McpTaskStartEvent,
  type McpTaskStopEvent,
  type McpTaskExceptionEvent,
  type McpRunOutcome,
} from './telemetry/telemetry.events.js';
export { McpTelemetryInterceptor } from './telemetry/mcp-telemetry.interceptor.js';
export { McpTasksHealthIndicator, type McpTasksHealthResult } from './health/mcp-tasks.health-indicator.js';
export type { McpTasksHealth } from './health/health.checks.js';
export type { McpCall } from './common/mcp-call.interface.js';
