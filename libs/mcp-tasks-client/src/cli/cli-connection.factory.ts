import { connect } from '../connect.factory.js';
import type { ConnectOptions, LegacyMode } from '../connect-options.interface.js';
import type { McpTasksClient } from '../mcp-tasks.client.js';
import { CLI_NAME, CLI_VERSION } from './cli.constants.js';
import { UsageError } from './usage.error.js';
import { tokenFromFlags, type TokenFlags } from './token-flags.provider.js';

/** Flags every command takes: the token flags, and `--legacy` where it applies. */
export interface ConnectionFlags extends TokenFlags {
  /** `--legacy`: see `ConnectOptions.legacy`. */
  legacy?: LegacyMode;
}

/** Connects as the CLI (`clientInfo` `CLI_NAME`); a URL that does not parse is a usage error. */
export async function connectCli(
  url: string,
  flags: ConnectionFlags,
  options: Pick<ConnectOptions, 'tasks' | 'handlers'> = {},
): Promise<McpTasksClient> {
  if (!URL.canParse(url)) throw new UsageError(`not a URL: ${JSON.stringify(url)} (e.g. http://127.0.0.1:3000/mcp)`);
  return connect(url, {
    ...options,
    token: tokenFromFlags(flags),
    legacy: flags.legacy,
    clientInfo: { name: CLI_NAME, version: CLI_VERSION },
  });
}
