import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrincipalResolver } from '../auth/principal.resolver.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { Principal } from '../common/principal.interface.js';
import { logSink } from '../context/log.sink.js';
import { progressSink } from '../context/progress.sink.js';
import { RunStoppedError } from '../context/run-stopped.error.js';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import { ToolRegistry } from '../discovery/tool.registry.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { MCP_METHODS, ownedMethod, type McpMethod } from '../dispatcher/methods.table.js';
import type { LegacyExchange } from '../legacy/legacy-exchange.js';
import { LegacyRouter } from '../legacy/legacy.router.js';
import { MCP_TASKS_OPTIONS, META } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { AppEnhancers } from '../pipeline/app-enhancers.js';
import { RpcError } from '../protocol/rpc.error.js';
import { toRpcError } from '../protocol/rpc-error.mapper.js';
import { SdkFallback } from '../sdk/sdk-fallback.js';
import { McpTracing } from '../telemetry/tracing.js';
import { checkHostAndOrigin } from './dns-rebinding.check.js';
import type { HttpCall } from './http-call.js';
import { Reply, replyError } from './reply.js';
import { checkDepth, readRequestBody } from './request-body.js';
import { RequestClassifier } from './request-classifier.js';
import { checkParamHeaders } from './param-headers.check.js';
import { checkStandardHeaders } from './standard-headers.check.js';

/** A 2026-07-28 request for a method the library answers itself. */
interface OwnedRequest {
  id: string | number;
  method: string;
  params: Record<string, any>;
  /** `params._meta`: the per-request envelope. */
  meta: Record<string, any>;
  version: string;
  /** Its entry in the method table. */
  entry: McpMethod;
}

const NEVER_ABORTED = new AbortController().signal;

/** A request of the 2025 era (no 2026-07-28 envelope), GET and DELETE included. */
const LEGACY = 'legacy' as const;

/**
 * One HTTP exchange: a request in, its answer out. The methods this library owns (the method table's: `tools/call`,
 * `tasks/*`, listening to tasks) are answered here, in front of the SDK: the SDK would build a server per request
 * on the `tasks/get` hot path, cannot gate task results on the caller's capabilities, and adds `content: []` to
 * task handles. Everything else goes to the SDK unchanged.
 */
@Injectable()
export class McpExchangeHandler {
  private readonly serverMeta: Record<string, unknown>;
  /** Whether the app's own code reads the request to tell who it is (a passport strategy, `subject`). */
  private readonly appIdentifies: boolean;
  private readonly classifier = new RequestClassifier();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly principals: PrincipalResolver,
    private readonly dispatcher: McpDispatcher,
    private readonly sdk: SdkFallback,
    private readonly tracing: McpTracing,
    private readonly enhancers: AppEnhancers,
    private readonly legacy: LegacyRouter,
    private readonly tools: ToolRegistry,
  ) {
    this.serverMeta = { [META.serverInfo]: { name: options.server.name, version: options.server.version } };
    this.appIdentifies = options.auth ? !!options.auth.strategy : !!options.subject;
  }

  /**
   * Every MCP request meets the app's global guards and interceptors once, after the library's own checks (host,
   * body, authentication): a tool call in its tool's pipeline, anything else around the rest of the exchange.
   */
  async handle(call: HttpCall): Promise<void> {
    const { req, res } = call;
    let id: string | number | null = null;
    try {
      checkHostAndOrigin(req, this.options.allowedHosts, this.options.allowedOrigins, this.options.trustProxy);
      const body = await readRequestBody(req, call.bodyLimit);
      // App-wide enhancers read the body where a route's would find it.
      if (body !== undefined && req.body === undefined) req.body = body;
      id = idOf(body);
      checkDepth(body);
      // On the fast path the app's code gets the request as on the platform's route (see `HttpContext.node`).
      const who = this.appIdentifies && call.platform.node ? (call.platform.req as typeof req) : req;
      const resolving = this.principals.resolve(who);
      // Known at once in most set-ups: an `await` would add promises every request (each tracked by an SDK's hooks).
      const principal = resolving instanceof Promise ? await resolving : resolving;
      const mcp = mcpCallOf(body, principal);
      if (MCP_METHODS.get(mcp.method)?.enhanced) await this.serve(call, body, principal);
      else await this.enhancers.run(call.platform, mcp, () => this.serve(call, body, principal));
    } catch (err) {
      replyError(res, id, toRpcError(err));
    }
  }

  /** The request past the app-wide enhancers: answered here, or by the SDK. */
  private async serve(call: HttpCall, body: unknown, principal: Principal): Promise<void> {
    const { req, res } = call;
    let reply: Reply | undefined;
    try {
      const owned = this.ownedRequest(req, body);
      if (owned === LEGACY && (await this.legacy.serve(this.legacyExchange(call, body, principal)))) return;
      if (!owned || owned === LEGACY) return await this.sdk.serve(req, res, body, principal);
      checkStandardHeaders(owned.method, owned.params, owned.version, req.headers);
      const tool = owned.method === 'tools/call' ? this.tools.get(owned.params.name) : undefined;
      if (tool) checkParamHeaders(tool, owned.params.arguments, req.headers);
      if ('streams' in owned.entry) return await this.dispatcher.stream(this.mcpRequest(owned, principal, call), res);
      reply = new Reply(res, owned.id);
      const result = await this.dispatcher.dispatch(this.mcpRequest(owned, principal, call, reply));
      // `_meta` first, then the result's own keys: a spread followed by a key costs ~0.6 µs in Node 20, this ~0.03.
      const answer = { _meta: this.serverMeta, ...result };
      if (result._meta !== undefined) answer._meta = this.serverMeta;
      reply.result(answer);
    } catch (err) {
      if (reply) reply.error(toRpcError(err));
      else replyError(res, idOf(body), toRpcError(err));
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
    if (route.kind !== 'modern' || route.messageKind !== 'request') return undefined;
    const { id, method } = route.message;
    const params = (route.message.params ?? {}) as Record<string, any>;
    const entry = ownedMethod(method, params, this.options);
    if (!entry) return undefined;
    const meta = (params._meta ?? {}) as Record<string, any>;
    return { id, method, params, meta, version: meta[META.protocolVersion], entry };
  }

  private legacyExchange(call: HttpCall, body: unknown, principal: Principal): LegacyExchange {
    const { req, res, platform } = call;
    return { req, res, http: platform, body, principal, reply: (id) => new Reply(res, id) };
  }

  /** The request as the dispatcher takes it; progress goes out on `reply` (a stream has none). */
  private mcpRequest(owned: OwnedRequest, principal: Principal, call: HttpCall, reply?: Reply): McpRequest {
    const { id, method, params, meta } = owned;
    const { req, res } = call;
    return {
      id,
      method,
      params,
      protocolVersion: owned.version,
      clientCapabilities: meta[META.clientCapabilities] ?? {},
      clientInfo: meta[META.clientInfo],
      principal,
      http: call.platform,
      signal: owned.entry.abortOnClose ? abortOnClose(res) : NEVER_ABORTED,
      progress: reply && progressSink(meta.progressToken, (n) => reply.notify({ ...n })),
      // The classifier refused a level that is none (-32602).
      log: reply && logSink(meta[META.logLevel], (n) => reply.notify({ ...n })),
      inputResponses: params.inputResponses,
      traceContext: this.tracing.callerContext(meta, req.headers),
    };
  }
}

/** What the generic `mcp` context shows of a request that calls no tool. */
function mcpCallOf(body: unknown, principal: Principal): McpCall {
  const message = (body && typeof body === 'object' ? body : {}) as { method?: unknown; params?: unknown };
  const id = idOf(body);
  const params = message.params && typeof message.params === 'object' ? message.params : undefined;
  return {
    method: typeof message.method === 'string' ? message.method : '',
    ...(id === null ? {} : { id }),
    ...(params ? { params: params as Record<string, unknown> } : {}),
    principal,
  };
}

const idOf = (body: unknown): string | number | null => {
  const id = (body as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
};

/** The client closing the connection cancels a request that is still running in it. */
function abortOnClose(res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) ac.abort(new RunStoppedError('connection closed'));
  });
  return ac.signal;
}
