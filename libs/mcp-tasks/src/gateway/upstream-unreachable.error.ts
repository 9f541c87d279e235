import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';

/**
 * An upstream that did not answer (refused, timed out, connection closed, answered with something that is not
 * JSON-RPC). What it failed with is for the server log only: it may name the upstream's address.
 */
export class UpstreamUnreachableError extends Error {
  constructor(
    readonly upstream: string,
    readonly reason: string,
    /** Whether the request only ran out of time (the connection itself may be fine). */
    readonly timedOut = false,
  ) {
    super(`upstream "${upstream}" unreachable: ${reason}`);
    this.name = 'UpstreamUnreachableError';
  }

  /** What the caller gets: `-32603` that says to try again, and nothing of the upstream's internals. */
  toRpcError(): RpcError {
    return new RpcError(RpcCode.InternalError, `Upstream "${this.upstream}" is unreachable; try again later`);
  }
}
