import type { McpTasksClient } from '../mcp-tasks.client.js';
import type { CliIo } from './cli-io.js';
import type { InputFlags } from './cli-input.handlers.js';
import { runAskingRequest } from './asking-request.runner.js';
import type { SharedFlags } from './cli.options.js';
import { PlainTaskDisplay } from './plain-task.display.js';
import { printResult } from './result.printer.js';
import { followTask } from './task.follower.js';
import { parseArgPairs, parseArgsJson } from './tool-args.parser.js';
import { TtyTaskDisplay } from './tty-task.display.js';

export interface CallFlags extends SharedFlags, InputFlags {
  /** `--args`: the arguments as one JSON object. */
  args?: string;
  /** `--arg key=value` (repeatable). */
  arg?: string[];
  /** `--no-tasks` sets it `false`: the tool runs synchronously when its policy allows. */
  tasks: boolean;
}

/** `call <url> <tool>`: runs a tool, follows its task with a progress display, answers its questions. */
export async function callCommand(url: string, tool: string, flags: CallFlags, io: CliIo): Promise<number> {
  const display = io.tty ? new TtyTaskDisplay() : new PlainTaskDisplay(io);
  const setup = { display, tasks: flags.tasks };
  return runAskingRequest(
    url,
    flags,
    io,
    async (client, interrupt) => {
      const args = await toolArguments(client, tool, flags);
      const call = await client.callTool(tool, args, { signal: interrupt.signal });
      if (call.kind === 'result') return printResult(call.result, io, Boolean(flags.json));
      return followTask(client, call.task, tool, {
        io,
        display,
        interrupt,
        json: Boolean(flags.json),
        listen: false,
        answer: true,
        cancelOnInterrupt: true,
      });
    },
    setup,
  );
}

/** `--args` as given, or `--arg` pairs typed by the tool's input schema (one `tools/list`). */
async function toolArguments(client: McpTasksClient, tool: string, flags: CallFlags): Promise<Record<string, unknown>> {
  if (flags.args !== undefined) return parseArgsJson(flags.args);
  if (!flags.arg?.length) return {};
  const { tools } = await client.sdk.listTools();
  return parseArgPairs(flags.arg, tools.find((t) => t.name === tool)?.inputSchema);
}
