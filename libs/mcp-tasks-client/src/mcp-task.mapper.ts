import type { TaskView } from '@modelcontextprotocol/ext-tasks/client';
import type { McpTask } from './mcp-task.interface.js';

/**
 * A wire task (`CreateTaskResult`, `tasks/get` result, `notifications/tasks` params) minus the envelope
 * fields (`_meta`, `resultType`) that describe the message rather than the task.
 */
export function taskFromWire(raw: Readonly<Record<string, unknown>>): McpTask {
  const fields = Object.entries(raw).filter(([key]) => key !== '_meta' && key !== 'resultType');
  return Object.fromEntries(fields) as unknown as McpTask;
}

/** The wire task inside an ext-tasks `TaskView` (its `raw`, a clone of what the server sent). */
export function taskFromView(view: TaskView): McpTask {
  return taskFromWire(view.raw);
}
