import { createRequire } from 'node:module';
import { connect } from '../connect.factory.js';
import type { ConnectOptions, LegacyMode } from '../connect-options.interface.js';
import type { McpTasksClient } from '../mcp-tasks.client.js';
import { UsageError } from './exit-codes.js';
import { tokenFromFlags, type TokenFlags } from './token-flags.provider.js';

/** This package's version (the CLI's `--version` and its `clientInfo`). */
export const CLI_VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string }).version;

/** Flags every command takes: the token flags, and `--legacy` where it applies. */
export interface ConnectionFlags extends TokenFlags {
  /** `--legacy`: see `ConnectOptions.legacy`. */
  legacy?: LegacyMode;
}

/** Connects as the CLI (`clientInfo` `mcp-tasks-cli`); a URL that does not parse is a usage error. */
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
    clientInfo: { name: 'mcp-tasks-cli', version: CLI_VERSION },
  });
}
