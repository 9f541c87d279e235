import type { TaskView, ToolExecution } from '@modelcontextprotocol/ext-tasks/client';

/** The task as `tools/call` created it: the first event of a task execution's update stream. */
export async function firstSnapshot(execution: Extract<ToolExecution<unknown>, { kind: 'task' }>): Promise<TaskView> {
  const updates = execution.updates()[Symbol.asyncIterator]();
  const first = await updates.next();
  await updates.return?.();
  if (first.done || first.value.type !== 'task') throw new Error('ext-tasks reported no task for a task execution');
  return first.value.task;
}
