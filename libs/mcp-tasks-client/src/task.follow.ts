import type { Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import type { TaskView } from '@modelcontextprotocol/ext-tasks/client';
import { taskId as asTaskId } from '@modelcontextprotocol/ext-tasks/core';
import type { AwaitTaskOptions } from './await-task-options.interface.js';
import type { TaskMachinery } from './mcp-tasks.client.js';
import type { McpTask } from './mcp-task.interface.js';
import { taskFromView } from './mcp-task.mapper.js';
import { observeTask } from './task.observer.js';
import type { TaskUpdateFeed } from './task-update.feed.js';

/**
 * Follows a task to its end for `McpTasksClient.awaitTask` / `runTool` (see there): through ext-tasks' resumed
 * execution, which answers its questions, or only observing it (`answer: false`); listening when asked to.
 */
export async function followTask(
  sdk: Client,
  machinery: TaskMachinery,
  tasks: boolean,
  taskId: string,
  options: AwaitTaskOptions,
  feed: TaskUpdateFeed,
): Promise<McpTask> {
  const { listen = false, fallbackPollFactor = 10, signal, answer = true } = options;
  const { session, cadence, tap } = machinery;
  if (listen && !tasks) throw new TypeError('awaitTask({ listen: true }) needs a client connected with tasks: true');
  let subscription: McpSubscription | undefined;
  if (listen && answer) {
    cadence.slow(taskId, fallbackPollFactor);
    tap.watch(taskId);
  }
  try {
    // Listen before the first read, so any later change is notified.
    if (listen) subscription = await sdk.listen({ taskIds: [taskId] } as SubscriptionFilter, { signal });
    if (!answer) {
      const read = (s?: AbortSignal) => readTask(machinery, taskId, s);
      return await observeTask(taskId, read, tap, { pollFactor: listen ? fallbackPollFactor : 1, signal, feed });
    }
    const reference = {
      endpointId: session.endpointId,
      generation: 'v2',
      taskId: asTaskId(taskId),
      originalOperation: 'tools/call',
    } as const;
    const execution = await session.resumeTask(reference, { signal });
    if (listen) await tap.replay(taskId);
    // Every snapshot ext-tasks accepts (polled or notified), in order, to the feed.
    const onEvent = async (event: { type: string; task?: TaskView }) => {
      if (event.type === 'task' && event.task) await feed.offer(cadence.restore(taskFromView(event.task)));
    };
    // The signal also ends a wait that sits in a handler (e.g. a prompt): settling detaches the execution.
    const settled = execution.settle({ onEvent, close: false, signal });
    // Whatever ext-tasks makes of an abort, the caller gets the signal's reason.
    const { outcome } = await settled.catch((error: unknown) => (signal?.throwIfAborted(), Promise.reject(error)));
    signal?.throwIfAborted();
    // No task means ext-tasks stopped following on its own (e.g. a handler broke the input ledger).
    if (!outcome.task)
      throw outcome.status === 'failed'
        ? outcome.error
        : new Error(`Task ${taskId} ended ${outcome.status} without a final state`);
    return taskFromView(outcome.task);
  } finally {
    if (listen && answer) {
      cadence.release(taskId);
      tap.unwatch(taskId);
    }
    await subscription?.close();
  }
}

/** One `tasks/get`, with the poll interval the connection's cadence keeps for the task. */
export async function readTask(machinery: TaskMachinery, taskId: string, signal?: AbortSignal): Promise<McpTask> {
  const task = taskFromView(await machinery.session.task(asTaskId(taskId)).snapshot(signal));
  return machinery.cadence.restore(task);
}
