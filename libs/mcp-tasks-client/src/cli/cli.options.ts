import { Option, type Command } from 'commander';
import type { ConnectionFlags } from './cli-connection.factory.js';
import { CLI_NAME } from './cli.constants.js';

/** The flags of every command: how it connects, and `--json`. */
export interface SharedFlags extends ConnectionFlags {
  /** `--json`: raw JSON instead of text. */
  json?: boolean;
}

/** The shared options a command takes besides the token flags and `--json`. */
export interface SharedOptionSet {
  /** `--sampling-text`, `--sampling-model`, `--root`: answers to the questions a person cannot type. */
  input?: boolean;
  /** `--legacy`: for the commands that work with a 2025-era server. */
  legacy?: boolean;
}

/** A repeatable option's values, in order. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * Adds the options commands share, with the command's `own` ones among them, in the order help lists them: the
 * token flags, `own`, the input flags, `--legacy`, `--json`.
 */
export function addSharedOptions(command: Command, own: Option[], set: SharedOptionSet = {}): Command {
  command
    .addOption(new Option('--token <token>', 'bearer token sent as Authorization').env('MCP_TOKEN'))
    .addOption(
      new Option('--token-cmd <command>', 'shell command that prints a fresh token, run for each request').conflicts(
        'tokenFile',
      ),
    )
    .addOption(new Option('--token-file <path>', 'file holding the token, read again for each request'));
  for (const option of own) command.addOption(option);
  if (set.input)
    command
      .addOption(new Option('--sampling-text <text>', 'answer sampling requests with this text'))
      .addOption(new Option('--sampling-model <name>', 'the model name sent with --sampling-text').default(CLI_NAME))
      .addOption(new Option('--root <uri>', 'answer roots/list with this root (repeatable)').argParser(collect));
  if (set.legacy)
    command.addOption(
      new Option('--legacy <mode>', 'servers that only speak a 2025 revision')
        .choices(['never', 'fallback', 'only'])
        .default('fallback'),
    );
  return command.addOption(new Option('--json', 'print raw JSON instead of text'));
}

/**
 * A command on one task, `<url> <taskId>`. A task id is base64url and may start with `-`: an unknown option is
 * taken as the id, and help is `--help` only (`-h…` may be an id).
 */
export function taskCommand(program: Command, name: string): Command {
  return program
    .command(name)
    .allowUnknownOption()
    .helpOption('--help')
    .argument('<url>', 'the MCP endpoint')
    .argument('<taskId>', 'the task');
}
