import type { CliIo } from './cli-io.js';
import { connectCli } from './cli-connection.factory.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { printTable } from './listing-table.printer.js';

/** `resources <url>`: the server's resources, then its resource templates (URI or template, name, description). */
export async function resourcesCommand(url: string, flags: SharedFlags, io: CliIo): Promise<number> {
  const client = await connectCli(url, flags);
  try {
    const { resources } = await client.sdk.listResources();
    const { resourceTemplates } = await client.sdk.listResourceTemplates();
    if (flags.json) {
      io.out(JSON.stringify({ resources, resourceTemplates }, null, 2));
      return ExitCode.ok;
    }
    const rows = [
      ...resources.map((r) => [r.uri, r.name, r.mimeType ?? '', r.description ?? '']),
      ...resourceTemplates.map((t) => [t.uriTemplate, t.name, t.mimeType ?? '', t.description ?? '']),
    ];
    printTable(['URI', 'NAME', 'TYPE', 'DESCRIPTION'], rows, io);
    io.err(
      `${resources.length} resources and ${resourceTemplates.length} templates at ${client.protocolVersion}` +
        (resourceTemplates.length ? ' (complete their {variables} with: complete --resource-template)' : ''),
    );
    return ExitCode.ok;
  } finally {
    await client.close();
  }
}
