import { ForbiddenException } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { checkHostAndOrigin } from '../http/dns-rebinding.check.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';

/**
 * DNS-rebinding protection for the console: the MCP endpoint's own Host/Origin rules, with the options (and
 * defaults) of the `McpTasksModule` registration it shows. A page of another origin whose name was rebound to this
 * machine reaches the console from loopback, so the peer address alone proves nothing. Refusal is 403.
 */
export function checkConsoleHost(req: IncomingMessage, options: ResolvedOptions): void {
  try {
    checkHostAndOrigin(req, options.allowedHosts, options.allowedOrigins, options.trustProxy);
  } catch (err) {
    if (err instanceof RpcError) throw new ForbiddenException(err.message);
    throw err;
  }
}
