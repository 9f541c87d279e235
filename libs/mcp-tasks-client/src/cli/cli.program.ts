import { Command, CommanderError, Option } from 'commander';
import { callCommand } from './call.command.js';
import { cancelCommand } from './cancel.command.js';
import { processIo, type CliIo } from './cli-io.js';
import { reportError } from './error.report.js';
import { CLI_NAME, CLI_VERSION, ExitCode } from './cli.constants.js';
import { getCommand } from './get.command.js';
import { toolsCommand } from './tools.command.js';
import { watchCommand } from './watch.command.js';

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const token = () => new Option('--token <token>', 'bearer token sent as Authorization').env('MCP_TOKEN');
const tokenCmd = () =>
  new Option('--token-cmd <command>', 'shell command that prints a fresh token, run for each request').conflicts(
    'tokenFile',
  );
const tokenFile = () => new Option('--token-file <path>', 'file holding the token, read again for each request');
const json = () => new Option('--json', 'print raw JSON instead of text');
const legacy = () =>
  new Option('--legacy <mode>', 'servers that only speak a 2025 revision')
    .choices(['never', 'fallback', 'only'])
    .default('fallback');
const samplingText = () => new Option('--sampling-text <text>', 'answer sampling requests with this text');
const samplingModel = () =>
  new Option('--sampling-model <name>', 'the model name sent with --sampling-text').default(CLI_NAME);
const root = () => new Option('--root <uri>', 'answer roots/list with this root (repeatable)').argParser(collect);

/** Runs the CLI on `argv` (as `process.argv`) and returns the exit code (see `ExitCode`). */
export async function runCli(argv: string[], io: CliIo = processIo()): Promise<number> {
  let code: number = ExitCode.ok;
  const run = (command: () => Promise<number>) => async () => void (code = await command());
  const program = new Command('mcp-tasks')
    .description('Call MCP tools and follow their tasks from a terminal (@mcp-tasks/client).')
    .version(CLI_VERSION)
    // The program's own options (-V, -h) only before a command: after it, `-V…` may be a task id.
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('call')
    .description('run a tool; a task shows its progress, asks its questions here, and Ctrl-C cancels it')
    .argument('<url>', 'the MCP endpoint, e.g. http://127.0.0.1:3000/mcp')
    .argument('<tool>', 'the tool to call')
    .addOption(new Option('--args <json>', 'the arguments as one JSON object').conflicts('arg'))
    .addOption(
      new Option('--arg <key=value>', 'one argument, typed by the tool schema (repeatable)').argParser(collect),
    )
    .addOption(token())
    .addOption(tokenCmd())
    .addOption(tokenFile())
    .option('--no-tasks', 'do not declare the Tasks extension: optional task tools run synchronously')
    .addOption(samplingText())
    .addOption(samplingModel())
    .addOption(root())
    .addOption(legacy())
    .addOption(json())
    .action((url: string, tool: string, flags) => run(() => callCommand(url, tool, flags, io))());

  program
    .command('tools')
    .description('list the tools with their task policy: sync, optional or required')
    .argument('<url>', 'the MCP endpoint')
    .addOption(token())
    .addOption(tokenCmd())
    .addOption(tokenFile())
    .addOption(legacy())
    .addOption(json())
    .action((url: string, flags) => run(() => toolsCommand(url, flags, io))());

  program
    .command('get')
    .allowUnknownOption() // a task id is base64url and may start with '-'
    .helpOption('--help') // not -h: a task id may start with it
    .description('show a task (one tasks/get)')
    .argument('<url>', 'the MCP endpoint')
    .argument('<taskId>', 'the task')
    .addOption(token())
    .addOption(tokenCmd())
    .addOption(tokenFile())
    .addOption(json())
    .action((url: string, taskId: string, flags) => run(() => getCommand(url, taskId, flags, io))());

  program
    .command('cancel')
    .allowUnknownOption() // a task id is base64url and may start with '-'
    .helpOption('--help') // not -h: a task id may start with it
    .description('cancel a task (tasks/cancel) and wait until it has stopped')
    .argument('<url>', 'the MCP endpoint')
    .argument('<taskId>', 'the task')
    .addOption(token())
    .addOption(tokenCmd())
    .addOption(tokenFile())
    .option('--wait <ms>', 'how long to wait for the task to stop (0 to 2147483647 ms)', '10000')
    .addOption(json())
    .action((url: string, taskId: string, flags) => run(() => cancelCommand(url, taskId, flags, io))());

  program
    .command('watch')
    .allowUnknownOption() // a task id is base64url and may start with '-'
    .helpOption('--help') // not -h: a task id may start with it
    .description('follow a task with a progress display (listening for notifications); Ctrl-C stops watching')
    .argument('<url>', 'the MCP endpoint')
    .argument('<taskId>', 'the task')
    .addOption(token())
    .addOption(tokenCmd())
    .addOption(tokenFile())
    .option('--no-answer', 'only observe: leave the task questions to another client')
    .addOption(samplingText())
    .addOption(samplingModel())
    .addOption(root())
    .addOption(json())
    .action((url: string, taskId: string, flags) => run(() => watchCommand(url, taskId, flags, io))());

  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    // Commander has printed its own message (or the help / version, which exit 0).
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    return reportError(error, io);
  }
}
