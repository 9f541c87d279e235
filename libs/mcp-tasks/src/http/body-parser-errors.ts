import type { IncomingMessage, ServerResponse } from 'node:http';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc-error.js';
import { replyError } from './reply.js';
import { parseError, parseJson } from './request-body.js';

type ParserError = Error & { type?: string; status?: number; body?: string };

/**
 * An Express error handler for the endpoint's path: the app's body parser fails before any route
 * runs (bad JSON, body too large), and Nest would answer in its own HTTP error format. MCP clients
 * get a JSON-RPC error instead.
 */
export function bodyParserErrors(path: string) {
  return (
    err: ParserError,
    req: IncomingMessage & { path?: string },
    res: ServerResponse,
    next: (e?: unknown) => void,
  ): void => {
    if (!req.path?.endsWith(path) || typeof err?.type !== 'string' || !err.type.startsWith('entity.')) return next(err);
    if (err.type === 'entity.parse.failed') {
      // The strict JSON parser also refuses valid JSON that is not an object: that is -32600, not -32700.
      try {
        parseJson(err.body ?? '');
      } catch (e) {
        return replyError(res, null, e as RpcError);
      }
      return replyError(res, null, parseError());
    }
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 400;
    replyError(
      res,
      null,
      new RpcError(RpcCode.InvalidRequest, `Invalid request body: ${err.message}`, undefined, status),
    );
  };
}
