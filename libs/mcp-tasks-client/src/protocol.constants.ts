import { TASKS_EXTENSION_ID_V2 } from '@modelcontextprotocol/ext-tasks/core/v2';

/**
 * The MCP revision this client speaks (pinned: the Tasks extension's wire shapes belong to it).
 * @publicApi
 */
export const PROTOCOL_VERSION = '2026-07-28';

/**
 * The Tasks extension's id (`io.modelcontextprotocol/tasks`, ext-tasks' `TASKS_EXTENSION_ID_V2`), declared under
 * `capabilities.extensions` when `tasks: true`.
 * @publicApi
 */
export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;
