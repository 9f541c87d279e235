export { connect } from './connect.factory.js';
export type { ConnectOptions, LegacyMode } from './connect-options.interface.js';
export type { InputContext, McpInputHandlers } from './input-handlers.interface.js';
export { McpTasksClient } from './mcp-tasks.client.js';
export { McpTaskError } from './mcp-task.error.js';
export { TasksUnavailableError } from './tasks-unavailable.error.js';
export { McpRpcError } from './mcp-rpc.error.js';
export { McpAuthError } from './mcp-auth.error.js';
export { UnauthorizedError } from './unauthorized.error.js';
export { ForbiddenError } from './forbidden.error.js';
export type { TokenProvider, TokenRequest } from './token-provider.interface.js';
export type {
  ListenTasksOptions,
  RawRequestOptions,
  TaskListenStream,
  TaskNotificationListener,
} from './raw-request.interface.js';
export type { McpInputRequest, McpTask, McpTaskStatus, ToolCallOutcome } from './mcp-task.interface.js';
export type { CompleteOptions, ReadResourceOptions } from './content-request-options.interface.js';
export type { AwaitTaskOptions, RunToolOptions, TaskUpdateListener } from './await-task-options.interface.js';
export { realmFetch } from './realm-json.fetch.js';
export { PROTOCOL_VERSION, TASKS_EXTENSION } from './protocol.constants.js';
