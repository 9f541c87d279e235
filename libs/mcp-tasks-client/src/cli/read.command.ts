import type { CliIo } from './cli-io.js';
import type { InputFlags } from './cli-input.handlers.js';
import type { SharedFlags } from './cli.options.js';
import { ExitCode } from './cli.constants.js';
import { runAskingRequest } from './asking-request.runner.js';
import { resourceLines } from './content.printer.js';

/** `read <url> <uri>`: one `resources/read`, its contents on stdout (text as it is; `--json`: the raw result). */
export function readCommand(url: string, uri: string, flags: SharedFlags & InputFlags, io: CliIo): Promise<number> {
  return runAskingRequest(url, flags, io, async (client, { signal }) => {
    // A command line asks for what the server has now: no cached read.
    const result = await client.readResource(uri, { signal, cacheMode: 'bypass' });
    if (flags.json) io.out(JSON.stringify(result, null, 2));
    else for (const line of resourceLines(result)) io.out(line);
    return ExitCode.ok;
  });
}
