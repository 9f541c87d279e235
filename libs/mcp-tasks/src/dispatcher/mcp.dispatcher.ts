import { Inject, Injectable } from '@nestjs/common';
import { MCP_TASKS_OPTIONS, TASKS_EXTENSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { declaresTasks, tasksNotDeclared } from '../protocol/capabilities.js';
import { RpcError } from '../protocol/rpc-error.js';
import { toRpcError } from '../protocol/rpc-error.mapper.js';
import { McpTracing } from '../telemetry/tracing.js';
import type { McpRequest } from './mcp-request.interface.js';
import { TaskMethodsHandler } from './task-methods.handler.js';
import { ToolCallHandler } from './tool-call.handler.js';

/**
 * Routes a validated request to its handler and turns whatever it throws into an `RpcError`:
 * Nest `HttpException`s (a guard refusing, say) keep their HTTP status; anything else is an
 * internal error whose text stays in the server log.
 */
@Injectable()
export class McpDispatcher {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly tools: ToolCallHandler,
    private readonly tasks: TaskMethodsHandler,
    private readonly tracing: McpTracing,
  ) {}

  async dispatch(req: McpRequest): Promise<Record<string, unknown>> {
    try {
      return req.method === 'tools/call' || !this.options.telemetry ? await this.route(req) : await this.traced(req);
    } catch (err) {
      throw toRpcError(err);
    }
  }

  /** A light span for `tasks/*` (the hot path: no work beyond the span itself). */
  private traced(req: McpRequest): Promise<Record<string, unknown>> {
    const taskId = typeof req.params.taskId === 'string' ? req.params.taskId : '';
    const attributes = { 'mcp.method.name': req.method, 'mcp.task.id': taskId, 'jsonrpc.request.id': String(req.id) };
    return this.tracing.inSpan({ name: req.method, kind: 'server', attributes }, req.traceContext, () =>
      this.route(req),
    );
  }

  private route(req: McpRequest): Promise<Record<string, unknown>> {
    if (req.method === 'tools/call') return this.tools.handle(req);
    // With the extension off its methods do not exist; without the client's declaration they are refused.
    if (!this.options.tasks) throw RpcError.methodNotFound(req.method);
    if (!declaresTasks(req.clientCapabilities)) {
      throw tasksNotDeclared(
        `${req.method} needs the ${TASKS_EXTENSION} extension declared in this request's capabilities`,
      );
    }
    return this.tasks.handle(req);
  }
}
