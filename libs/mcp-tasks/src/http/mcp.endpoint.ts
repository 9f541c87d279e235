import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { progressSink } from '../context/progress.sink.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { DISPATCHED_METHODS, MCP_TASKS_OPTIONS, META } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { PrincipalResolver } from '../auth/principal.resolver.js';
import { RpcError } from '../protocol/rpc-error.js';
import { checkHostAndOrigin } from './dns-rebinding.check.js';
import { Reply, replyError } from './reply.js';
import { RequestClassifier } from './request-classifier.js';
import { notARequest, readJsonBody } from './request-body.js';
import { SdkBridge } from './sdk-bridge.js';
import { TaskListenHandler } from '../subscriptions/task-listen.handler.js';
import { checkStandardHeaders } from './standard-headers.check.js';
import { McpTracing } from '../telemetry/tracing.js';
import { internalError } from '../common/internal-error.js';

type Req = IncomingMessage & { body?: unknown };

/**
 * One HTTP request in, one answer out. The methods this library owns (`tools/call`, `tasks/*`)
 * are answered here, in front of the SDK: the SDK would build a server per request on the
 * `tasks/get` hot path, cannot gate task results on the caller's capabilities, and adds
 * `content: []` to task handles. Everything else goes to the SDK unchanged.
 */
@Injectable()
export class McpEndpoint {
  private readonly serverMeta: Record<string, unknown>;
  private readonly classifier = new RequestClassifier();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly principals: PrincipalResolver,
    private readonly dispatcher: McpDispatcher,
    private readonly sdk: SdkBridge,
    private readonly listen: TaskListenHandler,
    private readonly tracing: McpTracing,
  ) {
    this.serverMeta = { [META.serverInfo]: { name: options.server.name, version: options.server.version } };
  }

  /** `bodyLimit`: the largest body read when no body parser ran first (the fast path passes Nest's default). */
  async handle(req: Req, res: ServerResponse, bodyLimit?: number): Promise<void> {
    let id: string | number | null = null;
    let reply: Reply | undefined;
    try {
      checkHostAndOrigin(req, this.options.allowedHosts, this.options.allowedOrigins);
      const body = req.method === 'POST' ? await readJsonBody(req, bodyLimit) : undefined;
      // Servers send no requests on this wire, so a client has no responses to post (and no id to echo).
      if (isResponse(body)) throw notARequest();
      id = idOf(body);
      const principal = await this.principals.resolve(req);
      const route = req.method === 'POST' && body !== undefined ? this.classifier.classify(req, body) : undefined;
      if (route?.kind === 'reject') throw new RpcError(route.code, route.message, route.data, route.httpStatus);
      if (route?.kind !== 'modern' || route.messageKind !== 'request' || !this.owns(route.message)) {
        return await this.sdk.serve(req, res, body, principal);
      }
      const { method } = route.message;
      const params = (route.message.params ?? {}) as Record<string, any>;
      const meta = (params._meta ?? {}) as Record<string, any>;
      const version = meta[META.protocolVersion] as string;
      checkStandardHeaders(method, params, version, req.headers);
      if (method === 'subscriptions/listen') {
        const listen = {
          id: route.message.id,
          taskIds: params.notifications.taskIds,
          clientCapabilities: meta[META.clientCapabilities] ?? {},
          principal,
        };
        return await this.listen.serve(listen, this.listen.check(listen), res);
      }
      const answer = new Reply(res, route.message.id);
      reply = answer;
      const result = await this.dispatcher.dispatch({
        id: route.message.id,
        method,
        params,
        protocolVersion: version,
        clientCapabilities: meta[META.clientCapabilities] ?? {},
        clientInfo: meta[META.clientInfo],
        principal,
        // Only a tool run in the request needs to hear that the client left.
        signal: method === 'tools/call' ? abortOnClose(res) : NEVER_ABORTED,
        progress: progressSink(meta.progressToken, (n) => answer.notify({ ...n })),
        inputResponses: params.inputResponses,
        traceContext: this.tracing.callerContext(meta, req.headers),
      });
      reply.result({ ...result, _meta: this.serverMeta });
    } catch (err) {
      const rpc = err instanceof RpcError ? err : internalError('request failed', err);
      if (reply) reply.error(rpc);
      else replyError(res, id, rpc);
    }
  }

  /** `tools/call`, `tasks/*`, and listening that names tasks; the SDK serves everything else. */
  private owns(message: { method: string; params?: Record<string, any> }): boolean {
    if (DISPATCHED_METHODS.has(message.method)) return true;
    return (
      message.method === 'subscriptions/listen' &&
      this.options.tasks &&
      message.params?.notifications?.taskIds !== undefined
    );
  }
}

const isResponse = (body: unknown): boolean =>
  !!body &&
  typeof body === 'object' &&
  !Array.isArray(body) &&
  !('method' in body) &&
  ('result' in body || 'error' in body);

const NEVER_ABORTED = new AbortController().signal;

const idOf = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** The client closing the connection cancels a request that is still running in it. */
function abortOnClose(res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort(new Error('connection closed'));
  });
  return ac.signal;
}
