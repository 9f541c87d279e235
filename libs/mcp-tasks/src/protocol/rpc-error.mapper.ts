import { HttpException } from '@nestjs/common';
import { fromHttpException } from './http-exception.mapper.js';
import { internalError } from './internal.error.js';
import { RpcError } from './rpc.error.js';

/**
 * Whatever a request's handling threw, as the JSON-RPC error the client is answered with: an `RpcError` as it is, a
 * Nest `HttpException` (a guard refusing) with its HTTP status and message, anything else an internal error whose
 * text stays in the server log under `what`.
 */
export function toRpcError(err: unknown, what = 'request failed'): RpcError {
  if (err instanceof RpcError) return err;
  if (err instanceof HttpException) return fromHttpException(err);
  return internalError(what, err);
}
