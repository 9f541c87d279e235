import { HttpException } from '@nestjs/common';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from './rpc.error.js';

/**
 * A Nest `HttpException` (a guard refusing, a method throwing `ForbiddenException`) as a JSON-RPC
 * error: client errors keep their message and HTTP status under -32600; server errors become a
 * plain internal error. Nest means these messages for clients; other exceptions' text never is.
 */
export function fromHttpException(err: HttpException): RpcError {
  const status = err.getStatus();
  if (status >= 500) return new RpcError(RpcCode.InternalError, 'Internal error', undefined, 500);
  return new RpcError(RpcCode.InvalidRequest, err.message, undefined, status);
}
