import type { McpTasksClient } from '../mcp-tasks.client.js';
import type { CliIo } from './cli-io.js';
import { cliInputHandlers, type InputFlags } from './cli-input.handlers.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { Interrupt } from './interrupt.js';
import { PlainTaskDisplay } from './plain-task.display.js';
import type { TaskDisplay } from './task-display.interface.js';

/** How the connection is made: the task display questions pause (plain lines on stderr by default), and `tasks`. */
export interface AskingRequestSetup {
  display?: TaskDisplay;
  /** Whether the client declares the Tasks extension (`call`'s `--no-tasks`). */
  tasks?: boolean;
}

/**
 * Runs one request that may ask questions (a tool call, an MRTR round of `resources/read` or `prompts/get`): a form
 * in the terminal, sampling and roots from the flags. Ctrl-C aborts `interrupt.signal` (130 once it has).
 */
export async function runAskingRequest(
  url: string,
  flags: SharedFlags & InputFlags,
  io: CliIo,
  request: (client: McpTasksClient, interrupt: Interrupt) => Promise<number>,
  setup: AskingRequestSetup = {},
): Promise<number> {
  const interrupt = new Interrupt().arm();
  // Without a task to show, notes (a sampling answer from the flags) go to stderr as plain lines.
  const display = setup.display ?? new PlainTaskDisplay(io);
  const handlers = cliInputHandlers(flags, { ask: io.interactive, display, interrupt });
  try {
    const tasks = setup.tasks === undefined ? {} : { tasks: setup.tasks };
    const client = await connectCli(url, flags, { ...tasks, handlers });
    try {
      return await request(client, interrupt);
    } finally {
      await client.close();
    }
  } catch (error) {
    if (!interrupt.interrupted) throw error;
    io.err('interrupted');
    return ExitCode.interrupted;
  } finally {
    interrupt.disarm();
  }
}
