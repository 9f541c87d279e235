import { isTerminal } from '../task-update.feed.js';
import type { CliIo } from './cli-io.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { MAX_TIMER_MS } from '../duration.rule.js';
import { CANCEL_WAIT_MS, ExitCode } from './cli.constants.js';
import { msFlag } from './ms-flag.parser.js';
import { pollUntilEnded } from './task-end.poller.js';

/**
 * `cancel <url> <taskId>`: one `tasks/cancel`, then `tasks/get` until the task is terminal (at most `--wait`
 * ms) to say where it ended. A task that had ended already keeps its state (the server acknowledges anyway).
 */
export async function cancelCommand(
  url: string,
  taskId: string,
  flags: SharedFlags & { wait?: string },
  io: CliIo,
): Promise<number> {
  const waitMs = msFlag('--wait', flags.wait ?? String(CANCEL_WAIT_MS), { min: 0, max: MAX_TIMER_MS });
  const client = await connectCli(url, flags, { tasks: true });
  try {
    const before = await client.getTask(taskId);
    await client.cancelTask(taskId);
    const task = await pollUntilEnded(client, before, waitMs);
    if (flags.json) io.out(JSON.stringify(task, null, 2));
    else if (isTerminal(before.status)) io.out(`task ${taskId}: ${task.status} (it had ended before the cancel)`);
    else
      io.out(
        `task ${taskId}: ${isTerminal(task.status) ? task.status : `${task.status} (cancel requested; stopping)`}`,
      );
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}
