import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { ServerResponse } from 'node:http';
import { MCP_TASKS_OPTIONS, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { declaresTasks, tasksNotDeclared } from '../protocol/capabilities.js';
import { RpcError } from '../protocol/rpc.error.js';
import { toRpcError } from '../protocol/rpc-error.mapper.js';
import { McpTracing } from '../telemetry/tracing.js';
import type { McpAnswerHandler, McpStreamHandler } from './method-handler.interface.js';
import type { McpRequest } from './mcp-request.interface.js';
import { MCP_METHODS, type McpMethod } from './methods.table.js';

type Answer = Record<string, unknown>;

/**
 * Routes a validated request to the handler its entry in the method table names, past the entry's gate, and turns
 * whatever it throws into an `RpcError` (`toRpcError`): Nest `HttpException`s (a guard refusing, say) keep their
 * HTTP status; anything else is an internal error whose text stays in the server log.
 */
@Injectable()
export class McpDispatcher implements OnModuleInit {
  private readonly answerers = new Map<string, McpAnswerHandler>();
  private readonly streamers = new Map<string, McpStreamHandler>();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly tracing: McpTracing,
    private readonly ref: ModuleRef,
  ) {}

  /** Each entry's handler, from this registration's providers (looked up once, not per request). */
  onModuleInit(): void {
    for (const [method, entry] of MCP_METHODS) {
      if ('answers' in entry) this.answerers.set(method, this.ref.get(entry.answers, { strict: true }));
      else this.streamers.set(method, this.ref.get(entry.streams, { strict: true }));
    }
  }

  /** The result of a method that answers with one. */
  async dispatch(req: McpRequest): Promise<Answer> {
    try {
      const entry = MCP_METHODS.get(req.method);
      const handler = this.answerers.get(req.method);
      if (!entry || !handler) throw RpcError.methodNotFound(req.method);
      const run = (): Promise<Answer> => {
        this.checkGate(entry, req);
        return handler.handle(req);
      };
      return entry.span && this.options.telemetry ? await this.traced(req, run) : await run();
    } catch (err) {
      throw toRpcError(err);
    }
  }

  /** A method that answers with a stream on `res`; what refuses it throws before anything is written. */
  async stream(req: McpRequest, res: ServerResponse): Promise<void> {
    try {
      const entry = MCP_METHODS.get(req.method);
      const handler = this.streamers.get(req.method);
      if (!entry || !handler) throw RpcError.methodNotFound(req.method);
      this.checkGate(entry, req);
      await handler.stream(req, res);
    } catch (err) {
      throw toRpcError(err);
    }
  }

  /** With the extension off its methods do not exist; without the client's declaration they are refused. */
  private checkGate(entry: McpMethod, req: McpRequest): void {
    if (entry.gate !== 'tasks') return;
    if (!this.options.tasks) throw RpcError.methodNotFound(req.method);
    if (!declaresTasks(req.clientCapabilities)) {
      throw tasksNotDeclared(
        `${req.method} needs the ${TASKS_EXTENSION} extension declared in this request's capabilities`,
      );
    }
  }

  /** A light span (the hot path: no work beyond the span itself). */
  private traced(req: McpRequest, run: () => Promise<Answer>): Promise<Answer> {
    const taskId = typeof req.params.taskId === 'string' ? req.params.taskId : '';
    const attributes = { 'mcp.method.name': req.method, 'mcp.task.id': taskId, 'jsonrpc.request.id': String(req.id) };
    return this.tracing.inSpan({ name: req.method, kind: 'server', attributes }, req.traceContext, run);
  }
}
