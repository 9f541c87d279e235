import type { CliIo } from './cli-io.js';
import { cliInputHandlers, type InputFlags } from './cli-input.handlers.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { Interrupt } from './interrupt.js';
import { PlainTaskDisplay } from './plain-task.display.js';
import { followTask } from './task.follower.js';
import { TtyTaskDisplay } from './tty-task.display.js';

export interface WatchFlags extends SharedFlags, InputFlags {
  /** `--no-answer` sets it `false`: only observe, leave questions to another client. */
  answer: boolean;
}

/**
 * `watch <url> <taskId>`: follows a task that exists already, listening for `notifications/tasks`, with the
 * same display as `call`. Its questions are asked here when a person is at the terminal (and `--no-answer`
 * is not given); otherwise it only observes. Ctrl-C stops watching; the task keeps running.
 */
export async function watchCommand(url: string, taskId: string, flags: WatchFlags, io: CliIo): Promise<number> {
  const interrupt = new Interrupt().arm();
  const display = io.tty ? new TtyTaskDisplay() : new PlainTaskDisplay(io);
  const answer = flags.answer && io.interactive;
  const handlers = answer ? cliInputHandlers(flags, { ask: true, display, interrupt }) : {};
  try {
    const client = await connectCli(url, flags, { tasks: true, handlers });
    try {
      const task = await client.getTask(taskId);
      return await followTask(client, task, 'watching', {
        io,
        display,
        interrupt,
        json: Boolean(flags.json),
        listen: true,
        answer,
        cancelOnInterrupt: false,
      });
    } finally {
      await client.close();
    }
  } finally {
    interrupt.disarm();
  }
}
