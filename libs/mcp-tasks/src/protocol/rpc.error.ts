import { IntrinsicException } from '@nestjs/common';
import { RpcCode } from '../mcp-tasks.constants.js';

/**
 * A JSON-RPC error the endpoint answers with; a tool may throw one (a task then ends `failed` with it).
 * `httpStatus` is the status the Streamable HTTP transport pairs with it (the spec names 400/404 for some codes;
 * everything else rides on 200).
 * @publicApi
 */
export class RpcError extends IntrinsicException {
  constructor(
    readonly code: number,
    message: string,
    /** The error's `data`. @default none */
    readonly data?: unknown,
    /** @default 200 */
    readonly httpStatus = 200,
    /** Extra response headers (e.g. `WWW-Authenticate`). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  toJSON(): { code: number; message: string; data?: unknown } {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static invalidParams(message: string, data?: unknown): RpcError {
    return new RpcError(RpcCode.InvalidParams, message, data);
  }

  static methodNotFound(method: string): RpcError {
    return new RpcError(RpcCode.MethodNotFound, `Method not found: ${method}`, undefined, 404);
  }

  static missingCapability(requiredCapabilities: Record<string, unknown>, message: string): RpcError {
    return new RpcError(RpcCode.MissingCapability, message, { requiredCapabilities }, 400);
  }

  /** The one answer for a task that does not exist, expired, or belongs to someone else. */
  static taskNotFound(): RpcError {
    return new RpcError(RpcCode.InvalidParams, 'Task not found');
  }
}
