import { MODERN_PROTOCOL_VERSION, RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';

/** The 2025 revisions' code for a resource that does not exist (their Resources → Error Handling). */
const LEGACY_RESOURCE_NOT_FOUND = -32002;

/**
 * A `resources/read` of a URI no resource or template serves: `-32602` on 2026-07-28 (SEP-2164), `-32002` on the
 * 2025 revisions, as each spec says; both carry the URI in `data`.
 */
export function resourceNotFound(uri: string, protocolVersion: string): RpcError {
  const code = protocolVersion === MODERN_PROTOCOL_VERSION ? RpcCode.InvalidParams : LEGACY_RESOURCE_NOT_FOUND;
  return new RpcError(code, `Resource not found: ${uri}`, { uri });
}
