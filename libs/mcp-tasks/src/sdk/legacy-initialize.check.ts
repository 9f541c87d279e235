import { isInitializeRequest } from '@modelcontextprotocol/server';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc-error.js';

/**
 * A 2025-era `initialize` whose params do not fit the SDK's own schema: the SDK would answer `-32603` with its schema
 * errors as the message; this is the client's mistake, so `-32602`/400 before the SDK sees it.
 */
export function checkLegacyInitialize(message: unknown): void {
  if (isInitializeRequest(message)) return;
  throw new RpcError(
    RpcCode.InvalidParams,
    'Invalid params: initialize needs protocolVersion (a string), capabilities and clientInfo { name, version }',
    undefined,
    400,
  );
}
