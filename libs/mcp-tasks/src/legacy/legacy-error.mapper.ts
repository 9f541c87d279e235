import { RpcError } from '../protocol/rpc.error.js';
import { toRpcError } from '../protocol/rpc-error.mapper.js';

/**
 * A failure as the 2025 era answers it: a JSON-RPC error in the body of a 200, as that era's servers (the SDK's
 * among them) do. 400 and 404 are 2026-07-28 pairings (method not found, missing capability); authentication and
 * guard refusals (401, 403) keep their status. Nest exceptions keep their message; anything else is internal.
 */
export function legacyError(err: unknown): RpcError {
  const rpc = toRpcError(err);
  if (rpc.httpStatus !== 400 && rpc.httpStatus !== 404) return rpc;
  return new RpcError(rpc.code, rpc.message, rpc.data, 200, rpc.headers);
}
