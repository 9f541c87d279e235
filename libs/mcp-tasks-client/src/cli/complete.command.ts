import type { CliIo } from './cli-io.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { stringPairs } from './prompt-args.parser.js';
import { UsageError } from './usage.error.js';

export interface CompleteFlags extends SharedFlags {
  /** `--prompt <name>`: complete an argument of this prompt. */
  prompt?: string;
  /** `--resource-template <uriTemplate>`: complete a URI variable of this template. */
  resourceTemplate?: string;
  /** `--argument <name>`: the argument (or variable) to complete. */
  argument: string;
  /** `--value <text>` [`''`]: what has been typed of it so far. */
  value: string;
  /** `--context key=value` (repeatable): the other arguments chosen so far. */
  context?: string[];
}

/** `complete <url> --prompt|--resource-template … --argument … --value …`: the values, one a line on stdout. */
export async function completeCommand(url: string, flags: CompleteFlags, io: CliIo): Promise<number> {
  const { prompt, resourceTemplate } = flags;
  if (prompt === undefined && resourceTemplate === undefined)
    throw new UsageError('complete needs --prompt <name> or --resource-template <uriTemplate>');
  const ref =
    prompt !== undefined
      ? ({ type: 'ref/prompt', name: prompt } as const)
      : ({ type: 'ref/resource', uri: resourceTemplate! } as const);
  const context = flags.context?.length ? stringPairs(flags.context, '--context') : undefined;
  const client = await connectCli(url, flags);
  try {
    const result = await client.complete(ref, { name: flags.argument, value: flags.value }, { context });
    if (flags.json) {
      io.out(JSON.stringify(result, null, 2));
      return ExitCode.ok;
    }
    const { values, total, hasMore } = result.completion;
    for (const value of values) io.out(value);
    const of = total !== undefined && total !== values.length ? ` of ${total}` : '';
    const noun = (total ?? values.length) === 1 ? 'value' : 'values';
    io.err(`${values.length}${of} ${noun}${hasMore ? ' (more: type more of the value)' : ''}`);
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}
