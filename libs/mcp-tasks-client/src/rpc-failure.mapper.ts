import { ProtocolError } from '@modelcontextprotocol/client';
import { authFailureIn } from './auth-failure.lookup.js';
import { McpRpcError } from './mcp-rpc.error.js';

/**
 * Rethrows what an SDK request failed with as this package's errors: a 401/403 as the refusal it comes from, a
 * JSON-RPC error (the SDK's `ProtocolError`) as `McpRpcError` with the server's code, message and data (the SDK's
 * error as its `cause`), anything else as it is.
 */
export function rethrowRpc(error: unknown): never {
  const refusal = authFailureIn(error);
  if (refusal) throw refusal;
  if (error instanceof ProtocolError) {
    throw Object.assign(new McpRpcError(error.code, error.message, error.data), { cause: error });
  }
  throw error;
}
