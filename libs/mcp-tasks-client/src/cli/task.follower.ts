import type { McpTasksClient } from '../mcp-tasks.client.js';
import type { McpTask } from '../mcp-task.interface.js';
import { isTerminal } from '../task-update.feed.js';
import type { CliIo } from './cli-io.js';
import { ExitCode } from './cli.constants.js';
import type { Interrupt } from './interrupt.js';
import { printOutcome } from './result.printer.js';
import type { TaskDisplay } from './task-display.interface.js';

export interface FollowOptions {
  io: CliIo;
  display: TaskDisplay;
  interrupt: Interrupt;
  json: boolean;
  /** Listen for `notifications/tasks` besides polling (`watch`). */
  listen: boolean;
  /** Answer the task's questions (`false`: observe only). */
  answer: boolean;
  /** On Ctrl-C, cancel the task (`call`) or only stop watching (`watch`). */
  cancelOnInterrupt: boolean;
}

/** How long Ctrl-C waits for a cancelled task to read `cancelled` before exiting anyway. */
const CANCEL_WAIT_MS = 10_000;

/** Follows a task with the display until it ends or Ctrl-C; prints the outcome and returns the exit code. */
export async function followTask(
  client: McpTasksClient,
  task: McpTask,
  label: string,
  o: FollowOptions,
): Promise<number> {
  o.display.start(task, label);
  try {
    const done = await client.awaitTask(task, {
      onUpdate: (t) => o.display.update(t),
      signal: o.interrupt.signal,
      listen: o.listen,
      // Progress messages are not notified (only status changes are), so keep polling at the server's pace.
      fallbackPollFactor: 1,
      answer: o.answer,
    });
    o.display.stop(done);
    return printOutcome(done, o.io, o.json);
  } catch (error) {
    if (!o.interrupt.interrupted) throw error;
    o.display.stop();
    if (!o.cancelOnInterrupt) {
      o.io.err(`stopped watching task ${task.taskId}; it keeps running`);
      return ExitCode.interrupted;
    }
    o.io.err(`cancelling task ${task.taskId} (Ctrl-C again to exit at once)`);
    await client.cancelTask(task.taskId);
    const final = await untilTerminal(client, task.taskId);
    o.io.err(`task ${task.taskId}: ${final ? final.status : 'cancel requested, still stopping'}`);
    return ExitCode.interrupted;
  }
}

/** Polls until the task is terminal, for at most `CANCEL_WAIT_MS`; `undefined` when it is not by then. */
async function untilTerminal(client: McpTasksClient, taskId: string): Promise<McpTask | undefined> {
  const deadline = Date.now() + CANCEL_WAIT_MS;
  for (;;) {
    const task = await client.getTask(taskId);
    if (isTerminal(task.status)) return task;
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollIntervalMs ?? 500, 1000)));
  }
}
