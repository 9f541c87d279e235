import type { INestApplication } from '@nestjs/common';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from '../connect.factory.js';
import type { ConnectOptions } from '../connect-options.interface.js';
import type { McpTasksClient } from '../mcp-tasks.client.js';
import { loopbackUrl } from './loopback-url.js';

/**
 * Options of `createMcpTestClient`: those of `connect` (defaults in brackets there), plus the endpoint path.
 * @publicApi
 */
export interface McpTestClientOptions extends ConnectOptions {
  /** [`'/mcp'`] The MCP endpoint's path (`McpTasksModule`'s `path` option). */
  path?: string;
}

/**
 * A client connected to a Nest app under test over real HTTP. An app that is not listening yet is
 * listened on `127.0.0.1` at a free port (closing the app stops it); a listening one is reached
 * over loopback at its own port. Close the client before the app.
 * @publicApi
 */
export async function createMcpTestClient(
  app: INestApplication,
  options: McpTestClientOptions = {},
): Promise<McpTasksClient> {
  const { path = '/mcp', ...connectOptions } = options;
  const server = app.getHttpServer() as Server;
  if (!server.listening) await app.listen(0, '127.0.0.1');
  return connect(loopbackUrl(server.address() as AddressInfo, path), connectOptions);
}
