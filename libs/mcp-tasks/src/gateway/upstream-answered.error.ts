import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';

/** The HTTP status our own answers use for each code, so a relayed error travels like ours. */
const STATUS: Record<number, number> = {
  [RpcCode.MethodNotFound]: 404,
  [RpcCode.HeaderMismatch]: 400,
  [RpcCode.MissingCapability]: 400,
  [RpcCode.UnsupportedVersion]: 400,
};

/**
 * A JSON-RPC error the upstream server itself answered with: the caller's answer, whatever its code (`-32001` and
 * `-32000` included). Only `upstreamFailure` makes one, from an error that came in a response.
 */
export class UpstreamAnsweredError extends Error {
  constructor(
    readonly upstream: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'UpstreamAnsweredError';
  }

  /** Passed on with its code, message and data (never its HTTP headers). */
  toRpcError(): RpcError {
    return new RpcError(this.code, this.message, this.data, STATUS[this.code] ?? 200);
  }
}
