import { Command, CommanderError, Option } from 'commander';
import { callCommand } from './call.command.js';
import { cancelCommand } from './cancel.command.js';
import { completeCommand } from './complete.command.js';
import { processIo, type CliIo } from './cli-io.js';
import { reportError } from './error.report.js';
import { CANCEL_WAIT_MS, CLI_VERSION, ExitCode } from './cli.constants.js';
import { addSharedOptions, collect, taskCommand } from './cli.options.js';
import { getCommand } from './get.command.js';
import { promptCommand } from './prompt.command.js';
import { promptsCommand } from './prompts.command.js';
import { readCommand } from './read.command.js';
import { resourcesCommand } from './resources.command.js';
import { toolsCommand } from './tools.command.js';
import { watchCommand } from './watch.command.js';

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

  const call = program
    .command('call')
    .description('run a tool; a task shows its progress, asks its questions here, and Ctrl-C cancels it')
    .argument('<url>', 'the MCP endpoint, e.g. http://127.0.0.1:3000/mcp')
    .argument('<tool>', 'the tool to call')
    .addOption(new Option('--args <json>', 'the arguments as one JSON object').conflicts('arg'))
    .addOption(
      new Option('--arg <key=value>', 'one argument, typed by the tool schema (repeatable)').argParser(collect),
    );
  const noTasks = new Option('--no-tasks', 'do not declare the Tasks extension: optional task tools run synchronously');
  addSharedOptions(call, [noTasks], { input: true, legacy: true }).action((url: string, tool: string, flags) =>
    run(() => callCommand(url, tool, flags, io))(),
  );

  const tools = program
    .command('tools')
    .description('list the tools with their task policy: sync, optional or required')
    .argument('<url>', 'the MCP endpoint');
  addSharedOptions(tools, [], { legacy: true }).action((url: string, flags) =>
    run(() => toolsCommand(url, flags, io))(),
  );

  const resources = program
    .command('resources')
    .description('list the resources and resource templates')
    .argument('<url>', 'the MCP endpoint');
  addSharedOptions(resources, [], { legacy: true }).action((url: string, flags) =>
    run(() => resourcesCommand(url, flags, io))(),
  );

  const read = program
    .command('read')
    .description('read a resource (resources/read) and print its contents')
    .argument('<url>', 'the MCP endpoint')
    .argument('<uri>', 'the resource URI, e.g. demo://projects/site/manifest');
  addSharedOptions(read, [], { input: true, legacy: true }).action((url: string, uri: string, flags) =>
    run(() => readCommand(url, uri, flags, io))(),
  );

  const prompts = program
    .command('prompts')
    .description('list the prompts with their arguments')
    .argument('<url>', 'the MCP endpoint');
  addSharedOptions(prompts, [], { legacy: true }).action((url: string, flags) =>
    run(() => promptsCommand(url, flags, io))(),
  );

  const prompt = program
    .command('prompt')
    .description("get a prompt (prompts/get) with its arguments and print its messages as 'role: text'")
    .argument('<url>', 'the MCP endpoint')
    .argument('<name>', 'the prompt')
    .addOption(new Option('--args <json>', 'the arguments as one JSON object of strings').conflicts('arg'))
    .addOption(new Option('--arg <key=value>', 'one argument, a string as given (repeatable)').argParser(collect));
  addSharedOptions(prompt, [], { input: true, legacy: true }).action((url: string, name: string, flags) =>
    run(() => promptCommand(url, name, flags, io))(),
  );

  const complete = program
    .command('complete')
    .description('complete an argument of a prompt or a URI variable of a resource template (completion/complete)')
    .argument('<url>', 'the MCP endpoint')
    .addOption(new Option('--prompt <name>', 'the prompt whose argument to complete').conflicts('resourceTemplate'))
    .addOption(new Option('--resource-template <uriTemplate>', 'the resource template whose variable to complete'))
    .requiredOption('--argument <name>', 'the argument (or URI variable) to complete')
    .option('--value <text>', 'what has been typed of it so far', '')
    .addOption(new Option('--context <key=value>', 'another argument chosen so far (repeatable)').argParser(collect));
  addSharedOptions(complete, [], { legacy: true }).action((url: string, flags) =>
    run(() => completeCommand(url, flags, io))(),
  );

  const get = taskCommand(program, 'get').description('show a task (one tasks/get)');
  addSharedOptions(get, []).action((url: string, taskId: string, flags) =>
    run(() => getCommand(url, taskId, flags, io))(),
  );

  const cancel = taskCommand(program, 'cancel').description(
    'cancel a task (tasks/cancel) and wait until it has stopped',
  );
  const wait = new Option('--wait <ms>', 'how long to wait for the task to stop (0 to 2147483647 ms)').default(
    String(CANCEL_WAIT_MS),
  );
  addSharedOptions(cancel, [wait]).action((url: string, taskId: string, flags) =>
    run(() => cancelCommand(url, taskId, flags, io))(),
  );

  const watch = taskCommand(program, 'watch').description(
    'follow a task with a progress display (listening for notifications); Ctrl-C stops watching',
  );
  const noAnswer = new Option('--no-answer', 'only observe: leave the task questions to another client');
  addSharedOptions(watch, [noAnswer], { input: true }).action((url: string, taskId: string, flags) =>
    run(() => watchCommand(url, taskId, flags, io))(),
  );

  try {
    await program.parseAsync(argv);
    return code;
  } catch (error) {
    // Commander has printed its own message (or the help / version, which exit 0).
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    return reportError(error, io);
  }
}
