import type { CliIo } from './cli-io.js';
import type { InputFlags } from './cli-input.handlers.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { runAskingRequest } from './asking-request.runner.js';
import { messageLines } from './content.printer.js';
import { parsePromptArgs } from './prompt-args.parser.js';

export interface PromptFlags extends SharedFlags, InputFlags {
  /** `--args`: the arguments as one JSON object of strings. */
  args?: string;
  /** `--arg key=value` (repeatable), values as given. */
  arg?: string[];
}

/** `prompt <url> <name>`: one `prompts/get`, its messages on stdout as `role: text` (`--json`: the raw result). */
export async function promptCommand(url: string, name: string, flags: PromptFlags, io: CliIo): Promise<number> {
  const args = parsePromptArgs(flags.args, flags.arg);
  return runAskingRequest(url, flags, io, async (client, { signal }) => {
    const result = await client.getPrompt(name, args, { signal });
    if (flags.json) io.out(JSON.stringify(result, null, 2));
    else for (const line of messageLines(result)) io.out(line);
    return ExitCode.ok;
  });
}
