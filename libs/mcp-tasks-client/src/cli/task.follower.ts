import type { McpTasksClient } from '../mcp-tasks.client.js';
import type { McpTask } from '../mcp-task.interface.js';
import { isTerminal } from '../task-update.feed.js';
import type { CliIo } from './cli-io.js';
import { CANCEL_WAIT_MS, ExitCode } from './cli.constants.js';
import type { Interrupt } from './interrupt.js';
import { printOutcome } from './result.printer.js';
import type { TaskDisplay } from './task-display.interface.js';
import { pollUntilEnded } from './task-end.poller.js';

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
    const final = await pollUntilEnded(client, await client.getTask(task.taskId), CANCEL_WAIT_MS);
    o.io.err(`task ${task.taskId}: ${isTerminal(final.status) ? final.status : 'cancel requested, still stopping'}`);
    return ExitCode.interrupted;
  }
}
