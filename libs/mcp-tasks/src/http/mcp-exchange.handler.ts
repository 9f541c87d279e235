import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrincipalResolver } from '../auth/principal.resolver.js';
import { internalError } from '../common/internal-error.js';
import type { Principal } from '../common/principal.interface.js';
import { progressSink } from '../context/progress.sink.js';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import type { LegacyExchange } from '../legacy/legacy-exchange.js';
import { LegacyRouter } from '../legacy/legacy.router.js';
import { DISPATCHED_METHODS, MCP_TASKS_OPTIONS, META } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc-error.js';
import { SdkFallback } from '../sdk/sdk-fallback.js';
import { TaskListenHandler } from '../subscriptions/task-listen.handler.js';
import { McpTracing } from '../telemetry/tracing.js';
import { checkHostAndOrigin } from './dns-rebinding.check.js';
import { Reply, replyError } from './reply.js';
import { readRequestBody } from './request-body.js';
import { RequestClassifier } from './request-classifier.js';
import { checkStandardHeaders } from './standard-headers.check.js';

/** A 2026-07-28 request for a method the library answers itself. */
interface OwnedRequest {
  id: string | number;
  method: string;
  params: Record<string, any>;
  /** `params._meta`: the per-request envelope. */
  meta: Record<string, any>;
  version: string;
}

const NEVER_ABORTED = new AbortController().signal;

/** A request of the 2025 era (no 2026-07-28 envelope), GET and DELETE included. */
const LEGACY = 'legacy' as const;

/**
 * One HTTP exchange: a request in, its answer out. The methods this library owns (`tools/call`, `tasks/*`,
 * listening to tasks) are answered here, in front of the SDK: the SDK would build a server per request on the
 * `tasks/get` hot path, cannot gate task results on the caller's capabilities, and adds `content: []` to task
 * handles. Everything else goes to the SDK unchanged.
 */
@Injectable()
export class McpExchangeHandler {
  private readonly serverMeta: Record<string, unknown>;
  private readonly classifier = new RequestClassifier();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly principals: PrincipalResolver,
    private readonly dispatcher: McpDispatcher,
    private readonly sdk: SdkFallback,
    private readonly listen: TaskListenHandler,
    private readonly tracing: McpTracing,
    private readonly legacy: LegacyRouter,
  ) {
    this.serverMeta = { [META.serverInfo]: { name: options.server.name, version: options.server.version } };
  }

  /** `bodyLimit`: the largest body read when no body parser ran first (the fast path passes Nest's default). */
  async handle(req: IncomingMessage, res: ServerResponse, bodyLimit?: number): Promise<void> {
    let id: string | number | null = null;
    let reply: Reply | undefined;
    try {
      checkHostAndOrigin(req, this.options.allowedHosts, this.options.allowedOrigins);
      const body = await readRequestBody(req, bodyLimit);
      id = idOf(body);
      const principal = await this.principals.resolve(req);
      const owned = this.ownedRequest(req, body);
      if (owned === LEGACY && (await this.legacy.serve(this.legacyExchange(req, res, body, principal)))) return;
      if (!owned || owned === LEGACY) return await this.sdk.serve(req, res, body, principal);
      checkStandardHeaders(owned.method, owned.params, owned.version, req.headers);
      if (owned.method === 'subscriptions/listen') return await this.serveListen(owned, principal, res);
      reply = new Reply(res, owned.id);
      const result = await this.dispatcher.dispatch(this.mcpRequest(owned, principal, req, res, reply));
      reply.result({ ...result, _meta: this.serverMeta });
    } catch (err) {
      const rpc = err instanceof RpcError ? err : internalError('request failed', err);
      if (reply) reply.error(rpc);
      else replyError(res, id, rpc);
    }
  }

  /**
   * The request, when it is a 2026-07-28 one the library answers; `legacy` for the 2025 era's (which the legacy wire
   * may answer); `undefined` sends it to the SDK; a bad envelope throws.
   */
  private ownedRequest(req: IncomingMessage, body: unknown): OwnedRequest | typeof LEGACY | undefined {
    if (req.method !== 'POST') return LEGACY;
    if (body === undefined) return undefined;
    const route = this.classifier.classify(req, body);
    if (route.kind === 'reject') throw new RpcError(route.code, route.message, route.data, route.httpStatus);
    if (route.kind === 'legacy') return LEGACY;
    if (route.kind !== 'modern' || route.messageKind !== 'request' || !this.owns(route.message)) return undefined;
    const params = (route.message.params ?? {}) as Record<string, any>;
    const meta = (params._meta ?? {}) as Record<string, any>;
    return { id: route.message.id, method: route.message.method, params, meta, version: meta[META.protocolVersion] };
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

  private serveListen(owned: OwnedRequest, principal: Principal, res: ServerResponse): Promise<void> {
    const listen = {
      id: owned.id,
      taskIds: owned.params.notifications.taskIds,
      clientCapabilities: owned.meta[META.clientCapabilities] ?? {},
      principal,
    };
    return this.listen.serve(listen, this.listen.check(listen), res);
  }

  private legacyExchange(
    req: IncomingMessage,
    res: ServerResponse,
    body: unknown,
    principal: Principal,
  ): LegacyExchange {
    return { req, res, body, principal, reply: (id) => new Reply(res, id) };
  }

  private mcpRequest(
    owned: OwnedRequest,
    principal: Principal,
    req: IncomingMessage,
    res: ServerResponse,
    reply: Reply,
  ): McpRequest {
    const { id, method, params, meta } = owned;
    return {
      id,
      method,
      params,
      protocolVersion: owned.version,
      clientCapabilities: meta[META.clientCapabilities] ?? {},
      clientInfo: meta[META.clientInfo],
      principal,
      // Only a tool run in the request needs to hear that the client left.
      signal: method === 'tools/call' ? abortOnClose(res) : NEVER_ABORTED,
      progress: progressSink(meta.progressToken, (n) => reply.notify({ ...n })),
      inputResponses: params.inputResponses,
      traceContext: this.tracing.callerContext(meta, req.headers),
    };
  }
}

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
