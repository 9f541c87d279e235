import { Logger } from '@nestjs/common';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from './rpc.error.js';

const logger = new Logger('McpTasks');

/**
 * The one answer to a failure that is not the client's doing: its text, which may hold secrets, goes to the
 * server log only (`<what>: <stack>`), and the client gets `-32603 Internal error`.
 */
export function internalError(what: string, err: unknown): RpcError {
  logger.error(`${what}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return new RpcError(RpcCode.InternalError, 'Internal error');
}
