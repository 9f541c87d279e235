import { isTerminal } from '../task-update.feed.js';
import type { CliIo } from './cli-io.js';
import { connectCli, type ConnectionFlags } from './cli-connection.factory.js';
import { MAX_TIMER_MS } from '../duration.rule.js';
import { ExitCode } from './cli.constants.js';
import { msFlag } from './ms-flag.parser.js';

/**
 * `cancel <url> <taskId>`: one `tasks/cancel`, then `tasks/get` until the task is terminal (at most `--wait`
 * ms) to say where it ended. A task that had ended already keeps its state (the server acknowledges anyway).
 */
export async function cancelCommand(
  url: string,
  taskId: string,
  flags: ConnectionFlags & { wait?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const waitMs = msFlag('--wait', flags.wait ?? '10000', { min: 0, max: MAX_TIMER_MS });
  const client = await connectCli(url, flags, { tasks: true });
  try {
    const before = await client.getTask(taskId);
    await client.cancelTask(taskId);
    const deadline = Date.now() + waitMs;
    let task = before;
    while (!isTerminal(task.status) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(task.pollIntervalMs ?? 500, 1000)));
      task = await client.getTask(taskId);
    }
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
