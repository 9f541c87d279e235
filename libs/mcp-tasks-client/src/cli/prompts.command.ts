import type { CliIo } from './cli-io.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { printTable } from './listing-table.printer.js';

/** `prompts <url>`: the server's prompts with their arguments (`name*`: required) and description. */
export async function promptsCommand(url: string, flags: SharedFlags, io: CliIo): Promise<number> {
  const client = await connectCli(url, flags);
  try {
    const { prompts } = await client.sdk.listPrompts();
    if (flags.json) {
      io.out(JSON.stringify(prompts, null, 2));
      return ExitCode.ok;
    }
    const args = (p: (typeof prompts)[number]) =>
      (p.arguments ?? []).map((a) => `${a.name}${a.required ? '*' : ''}`).join(',') || '-';
    printTable(
      ['PROMPT', 'ARGUMENTS', 'DESCRIPTION'],
      prompts.map((p) => [p.name, args(p), p.description ?? '']),
      io,
    );
    io.err(`${prompts.length} prompts at ${client.protocolVersion}; ARGUMENTS: * required`);
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}
