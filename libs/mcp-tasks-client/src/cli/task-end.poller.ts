import type { McpTask } from '../mcp-task.interface.js';
import type { McpTasksClient } from '../mcp-tasks.client.js';
import { isTerminal } from '../task-update.feed.js';

/**
 * After a cancel, reads the task (`tasks/get`) until it has ended or `waitMs` have passed, pausing at its
 * `pollIntervalMs` (at most 1 s); returns the last state read, `task` itself when that one has ended.
 */
export async function pollUntilEnded(client: McpTasksClient, task: McpTask, waitMs: number): Promise<McpTask> {
  const deadline = Date.now() + waitMs;
  let last = task;
  while (!isTerminal(last.status) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(last.pollIntervalMs ?? 500, 1000)));
    last = await client.getTask(last.taskId);
  }
  return last;
}
