import { TASK_SUPPORT_META } from './cli.constants.js';

/** A tool as `tools/list` gives it, as far as its task policy goes. */
export interface ListedTool {
  execution?: { taskSupport?: string };
  _meta?: Record<string, unknown>;
}

const POLICY: Record<string, string> = { forbidden: 'sync', optional: 'optional', required: 'required' };

/**
 * A tool's task policy (`sync`, `optional`, `required`), or `-` when the server does not say. At 2025-11-25 it is
 * `execution.taskSupport` (absent means `forbidden`); at 2026-07-28, where tools/list has no such field, an
 * McpTasksModule server says it in `_meta["mcp-tasks/taskSupport"]` with the same values.
 */
export function taskPolicyOf(tool: ListedTool, legacy: boolean): string {
  const support = legacy ? (tool.execution?.taskSupport ?? 'forbidden') : tool._meta?.[TASK_SUPPORT_META];
  return (typeof support === 'string' && POLICY[support]) || '-';
}
