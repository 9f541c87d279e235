/** The MCP revision this client speaks (pinned: the Tasks extension's wire shapes belong to it). */
export const PROTOCOL_VERSION = '2026-07-28';

/** The Tasks extension's id, declared under `capabilities.extensions` when `tasks: true`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/**
 * `_meta` key under which an McpTasksModule server lists a tool's task policy at 2026-07-28 (its own, not the spec's).
 */
export const TASK_SUPPORT_META = 'mcp-tasks/taskSupport';
