import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc-error.js';

/**
 * An upstream that did not answer (refused, timed out, answered with something that is not JSON-RPC). What it
 * failed with is for the server log only: it may name the upstream's address.
 */
export class UpstreamUnreachableError extends Error {
  constructor(
    readonly upstream: string,
    readonly reason: string,
  ) {
    super(`upstream "${upstream}" unreachable: ${reason}`);
    this.name = 'UpstreamUnreachableError';
  }

  /** What the caller gets: `-32603` that says to try again, and nothing of the upstream's internals. */
  toRpcError(): RpcError {
    return new RpcError(RpcCode.InternalError, `Upstream "${this.upstream}" is unreachable; try again later`);
  }
}

/** The HTTP status our own answers use for each code, so a relayed error travels like ours. */
const STATUS: Record<number, number> = {
  [RpcCode.MethodNotFound]: 404,
  [RpcCode.HeaderMismatch]: 400,
  [RpcCode.MissingCapability]: 400,
  [RpcCode.UnsupportedVersion]: 400,
};

/** A JSON-RPC error the upstream answered with (the client's `McpRpcError`, the SDK's `ProtocolError`). */
export const isUpstreamRpcError = (err: unknown): err is { code: number; message: string; data?: unknown } => {
  const code = err instanceof Error ? (err as Error & { code?: unknown }).code : undefined;
  return typeof code === 'number' && Number.isInteger(code) && code < 0;
};

/** The upstream's JSON-RPC error passed on with its code, message and data (never its HTTP headers). */
export const relayedError = (err: { code: number; message: string; data?: unknown }): RpcError =>
  new RpcError(err.code, err.message, err.data, STATUS[err.code] ?? 200);
