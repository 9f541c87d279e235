import type { TaskView } from '@modelcontextprotocol/ext-tasks/client';
import type { McpTask } from './mcp-task.types.js';

/**
 * The wire task inside an ext-tasks `TaskView` (its `raw`, a clone of what the server sent), minus
 * the envelope fields (`_meta`, and `resultType` of a `CreateTaskResult`) that describe the message
 * rather than the task.
 */
export function taskFromView(view: TaskView): McpTask {
  const fields = Object.entries(view.raw).filter(([key]) => key !== '_meta' && key !== 'resultType');
  return Object.fromEntries(fields) as unknown as McpTask;
}
