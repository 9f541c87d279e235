import type { McpTask } from './mcp-task.interface.js';

/**
 * How `runTool` rejects when its task ended without a result: `failed` (with the task's JSON-RPC `code`,
 * `message` and `data`) or `cancelled`. `task` is the final task.
 * @publicApi
 */
export class McpTaskError extends Error {
  readonly code?: number;
  readonly data?: unknown;

  constructor(readonly task: McpTask) {
    super(task.error?.message ?? `Task ${task.taskId} ended ${task.status}`);
    this.name = 'McpTaskError';
    this.code = task.error?.code;
    this.data = task.error?.data;
  }
}
