import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_TASKS_OPTIONS, RpcCode } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { replyError } from './reply.js';
import { parseError, parseJson } from './request-body.js';

type ParserError = Error & { type?: string; status?: number; body?: string };

const JSON_FAILURES = new Set(['FST_ERR_CTP_EMPTY_JSON_BODY', 'FST_ERR_CTP_INVALID_JSON_BODY']);

/**
 * The app's body parser fails before any route runs (bad JSON, a body too large), and Nest would answer in its
 * own error format; MCP clients get a JSON-RPC error instead. Express passes such failures to error handlers
 * only, which Nest has no decorator for (an exception filter sees them only app-wide, for every route), so this
 * installs one on the HTTP adapter. On module init: after Nest registered the routes, before its own not-found
 * and error handlers, which come last.
 */
@Injectable()
export class BodyParserErrors implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter?.getType() === 'express') adapter.use(bodyParserErrorHandler(this.options.path));
  }
}

/** The Express error handler: JSON-RPC errors for body parser failures on the endpoint's path. */
export function bodyParserErrorHandler(path: string) {
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

/**
 * A Fastify body-parsing failure on the endpoint's route (its route-level error handler) as a JSON-RPC error;
 * `undefined` for a content type Fastify has no parser for, which the endpoint answers itself (415 from the SDK).
 */
export function fastifyBodyError(err: ParserError & { statusCode?: number; code?: string }): RpcError | undefined {
  const status = err.statusCode ?? err.status ?? 400;
  if (status === 415) return undefined;
  // By name: the parser's SyntaxError may come from another realm.
  if (err.name === 'SyntaxError' || JSON_FAILURES.has(err.code ?? '')) return parseError();
  return new RpcError(
    RpcCode.InvalidRequest,
    `Invalid request body: ${err.message}`,
    undefined,
    status >= 400 && status < 500 ? status : 400,
  );
}
