import type { McpTasksClient } from '../mcp-tasks.client.js';
import type { CliIo } from './cli-io.js';
import { cliInputHandlers, type InputFlags } from './cli-input.handlers.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { Interrupt } from './interrupt.js';
import { PlainTaskDisplay } from './plain-task.display.js';

/**
 * Runs one request that may ask questions (an MRTR round of `resources/read` or `prompts/get`), answered as `call`
 * answers a synchronous tool's: a form in the terminal, sampling and roots from the flags. Ctrl-C aborts it (130).
 */
export async function runAskingRequest(
  url: string,
  flags: SharedFlags & InputFlags,
  io: CliIo,
  request: (client: McpTasksClient, signal: AbortSignal) => Promise<number>,
): Promise<number> {
  const interrupt = new Interrupt().arm();
  // No task to show: notes (a sampling answer from the flags) go to stderr as plain lines.
  const handlers = cliInputHandlers(flags, { ask: io.interactive, display: new PlainTaskDisplay(io), interrupt });
  try {
    const client = await connectCli(url, flags, { handlers });
    try {
      return await request(client, interrupt.signal);
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
