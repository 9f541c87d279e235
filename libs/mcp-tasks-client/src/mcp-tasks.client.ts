import type { CallToolResult, Client, McpSubscription, SubscriptionFilter } from '@modelcontextprotocol/client';
import {
  resultFromTaskOutcome,
  type TaskEnabledSession,
  type TaskView,
  type ToolExecution,
} from '@modelcontextprotocol/ext-tasks/client';
import { taskId as asTaskId, type JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import { taskFromView } from './mcp-task.mapper.js';
import type { AwaitTaskOptions, McpTask, ToolCallOutcome } from './mcp-task.types.js';
import type { PollCadence } from './poll-cadence.policy.js';
import type { TaskNotificationTap } from './task-notification.tap.js';

type JsonArgs = Readonly<Record<string, JsonValue>>;

/**
 * A connected client (see `connect`). Tool calls and task follow-ups go through the official
 * ext-tasks session; everything else is available on `sdk`, the official `Client`.
 */
export class McpTasksClient {
  /** @internal Built by `connect`. */
  constructor(
    /** The official SDK `Client`, connected at 2026-07-28: `listTools()`, `listen()`, … */
    readonly sdk: Client,
    private readonly session: TaskEnabledSession,
    private readonly cadence: PollCadence,
    private readonly tap: TaskNotificationTap,
    /** Whether the Tasks extension is declared (`ConnectOptions.tasks`). */
    readonly tasks: boolean,
  ) {}

  /**
   * Calls a tool. Its questions in a synchronous run (MRTR rounds) are answered by the handlers
   * before this resolves. A task is returned as created and is not followed until `awaitTask`,
   * so `getTask` / `updateTask` can drive it by hand instead. A JSON-RPC error rejects.
   */
  async callTool(
    name: string,
    args: Record<string, unknown> = {},
    options: { signal?: AbortSignal } = {},
  ): Promise<ToolCallOutcome> {
    // ext-tasks always declares the extension on tools/call, so the plain path is the SDK's own.
    if (!this.tasks)
      return { kind: 'result', result: await this.sdk.callTool({ name, arguments: args }, { signal: options.signal }) };
    const execution = await this.session.callTool(name, args as JsonArgs, { signal: options.signal });
    if (execution.kind === 'immediate')
      return { kind: 'result', result: resultFromTaskOutcome(await execution.result()) as CallToolResult };
    const created = await firstSnapshot(execution);
    // Stop ext-tasks' driver (no request was sent yet) and wait for it to give up the task id, which
    // `awaitTask` takes over with its own cadence.
    await execution.detach();
    await execution.result();
    return { kind: 'task', task: taskFromView(created) };
  }

  /**
   * Follows a task to its end and returns it (`completed` with `result`, `failed` with `error`, or
   * `cancelled`); `input_required` is answered by the handlers through `tasks/update`, each key
   * once. Polls at the server's `pollIntervalMs`, or with `listen` mostly waits for notifications.
   * One `awaitTask` per task at a time. Rejects when the task is unknown or the wait was aborted.
   */
  async awaitTask(task: Pick<McpTask, 'taskId'>, options: AwaitTaskOptions = {}): Promise<McpTask> {
    const { listen = false, fallbackPollFactor = 10, signal } = options;
    if (listen && !this.tasks)
      throw new TypeError('awaitTask({ listen: true }) needs a client connected with tasks: true');
    const { taskId } = task;
    let subscription: McpSubscription | undefined;
    if (listen) {
      this.cadence.slow(taskId, fallbackPollFactor);
      this.tap.watch(taskId);
    }
    try {
      // Listen before the first read, so any later change is notified.
      if (listen) subscription = await this.sdk.listen({ taskIds: [taskId] } as SubscriptionFilter, { signal });
      const reference = {
        endpointId: this.session.endpointId,
        generation: 'v2',
        taskId: asTaskId(taskId),
        originalOperation: 'tools/call',
      } as const;
      const execution = await this.session.resumeTask(reference, { signal });
      if (listen) await this.tap.replay(taskId);
      const outcome = await execution.result();
      signal?.throwIfAborted();
      // No task means ext-tasks stopped following on its own (e.g. a handler broke the input ledger).
      if (!outcome.task)
        throw outcome.status === 'failed'
          ? outcome.error
          : new Error(`Task ${taskId} ended ${outcome.status} without a final state`);
      return taskFromView(outcome.task);
    } finally {
      if (listen) {
        this.cadence.release(taskId);
        this.tap.unwatch(taskId);
      }
      await subscription?.close();
    }
  }

  /** One `tasks/get`: the task as it is now. */
  async getTask(taskId: string): Promise<McpTask> {
    return this.cadence.restore(taskFromView(await this.session.task(asTaskId(taskId)).snapshot()));
  }

  /** One `tasks/update`: answers outstanding input keys, e.g. `{ confirm: { action: 'accept', content: { confirm: true } } }`. */
  async updateTask(taskId: string, inputResponses: Record<string, unknown>): Promise<void> {
    await this.session.task(asTaskId(taskId)).updateJson(inputResponses);
  }

  /** One `tasks/cancel`. Cancellation is cooperative: the task reads `cancelled` once the server has stopped it. */
  async cancelTask(taskId: string): Promise<void> {
    await this.session.task(asTaskId(taskId)).cancel();
  }

  /** Stops following tasks (they keep running on the server) and closes the connection. */
  async close(): Promise<void> {
    await this.session.close();
    await this.sdk.close();
  }
}

/** The task as `tools/call` created it: the first event of a task execution's update stream. */
async function firstSnapshot(execution: Extract<ToolExecution<unknown>, { kind: 'task' }>): Promise<TaskView> {
  const updates = execution.updates()[Symbol.asyncIterator]();
  const first = await updates.next();
  await updates.return?.();
  if (first.done || first.value.type !== 'task') throw new Error('ext-tasks reported no task for a task execution');
  return first.value.task;
}
