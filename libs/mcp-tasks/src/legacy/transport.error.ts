import { RpcError } from '../protocol/rpc.error.js';

/** An unknown, malformed or foreign `Mcp-Session-Id` (as the SDK's session transport answers it). */
export const sessionNotFound = (): RpcError => new RpcError(-32001, 'Session not found', undefined, 404);

/** A transport-level refusal (`-32000`) with its HTTP status. */
export const badTransport = (status: number, message: string): RpcError =>
  new RpcError(-32000, message, undefined, status);
