import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, ProtocolError, Server, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../common/principal.interface.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { ToolRegistry } from '../discovery/tool.registry.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { MCP_TASKS_OPTIONS, LEGACY_PROTOCOL_VERSION, RpcCode, TASKS_REQUIRED } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc-error.js';
import { McpTracing } from '../telemetry/tracing.js';
import { progressSink } from '../context/progress.sink.js';

const principalOf = (ctx: { http?: { authInfo?: { extra?: Record<string, unknown> } } }): Principal =>
  ctx.http!.authInfo!.extra!.principal as Principal;

/** Lists are the same for every caller here, so shared caches may keep them a minute. */
const LIST_CACHE = { ttlMs: 60_000, cacheScope: 'public' as const };
const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'] as const;

type NodeHandler = (req: IncomingMessage, res: ServerResponse, body?: unknown) => Promise<void>;

/**
 * Everything the library does not answer itself goes to the official SDK: `server/discover`,
 * `tools/list`, unknown methods (404), notifications (202), GET/DELETE (405), and the whole
 * legacy (2025, `initialize`) era through the SDK's stateless fallback.
 */
@Injectable()
export class SdkBridge implements OnModuleDestroy {
  private readonly handler: McpHttpHandler;
  private readonly node: NodeHandler;
  private toolList?: Array<[string[], Record<string, unknown>]>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly registry: ToolRegistry,
    private readonly dispatcher: McpDispatcher,
    private readonly tracing: McpTracing,
  ) {
    this.handler = createMcpHandler(() => this.server(), { legacy: 'stateless', responseMode: 'auto' });
    this.node = toNodeHandler(this.handler) as NodeHandler;
  }

  /** Serves one HTTP request; `principal` travels to legacy tool calls through `authInfo`. */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, principal: Principal): Promise<void> {
    (req as IncomingMessage & { auth?: unknown }).auth = {
      token: '',
      clientId: '',
      scopes: principal.scopes,
      extra: { principal },
    };
    return this.node(req, res, body);
  }

  async onModuleDestroy(): Promise<void> {
    await this.handler.close();
  }

  /** The SDK builds one server per request; everything it needs is prepared once, here and in the registry. */
  private server(): Server {
    const { server, tasks } = this.options;
    const s = new Server(
      { name: server.name, version: server.version },
      {
        // Prompts and resources are empty for now, but listed so clients (and the caching checks) can ask.
        capabilities: {
          tools: {},
          prompts: {},
          resources: {},
          ...(tasks ? { extensions: { ...TASKS_REQUIRED.extensions } } : {}),
        },
        instructions: server.instructions,
        // With authentication the tool list depends on the caller's scopes: caches must keep it private.
        cacheHints: Object.fromEntries(
          LISTS.map((m) => [m, { ...LIST_CACHE, ...(this.options.auth ? { cacheScope: 'private' as const } : {}) }]),
        ),
      },
    );
    s.setRequestHandler('tools/list', (_r, ctx) => ({ tools: this.visibleTools(principalOf(ctx)) as never }));
    s.setRequestHandler('prompts/list', () => ({ prompts: [] }));
    s.setRequestHandler('resources/list', () => ({ resources: [] }));
    s.setRequestHandler('resources/templates/list', () => ({ resourceTemplates: [] }));
    s.setRequestHandler('tools/call', async (request, ctx) => {
      const principal = principalOf(ctx);
      const token = (request.params._meta as { progressToken?: string | number } | undefined)?.progressToken;
      try {
        const result = await this.dispatcher.dispatch({
          id: ctx.mcpReq.id,
          method: 'tools/call',
          params: request.params as Record<string, unknown>,
          protocolVersion: LEGACY_PROTOCOL_VERSION,
          clientCapabilities: {},
          principal,
          signal: ctx.mcpReq.signal,
          traceContext: this.tracing.active(),
          progress: progressSink(token, (n) => ctx.mcpReq.notify(n)),
        });
        const { resultType: _rt, ...rest } = result;
        return rest as never;
      } catch (err) {
        // -32021 is a 2026-07-28 code; a 2025-era client can neither declare the extension nor answer input here.
        if (err instanceof RpcError && err.code === RpcCode.MissingCapability) {
          throw new ProtocolError(
            RpcCode.InvalidRequest,
            `${String(request.params.name)} needs tasks or input from the client,` +
              ' which this server offers on protocol 2026-07-28 only',
          );
        }
        if (err instanceof RpcError) throw new ProtocolError(err.code, err.message, err.data);
        throw err;
      }
    });
    return s;
  }

  /** Tools the caller's scopes allow (all of them without authentication, or with `auth.listAllTools`). */
  private visibleTools(principal: Principal): Array<Record<string, unknown>> {
    const all = this.tools;
    if (!this.options.auth || this.options.auth.listAllTools) return all.map(([, wire]) => wire);
    const granted = new Set(principal.scopes);
    return all.filter(([scopes]) => scopes.every((s) => granted.has(s))).map(([, wire]) => wire);
  }

  /** Built on first use: the registry is complete once the app has bootstrapped. */
  private get tools(): Array<[string[], Record<string, unknown>]> {
    this.toolList ??= this.registry.list().map((t) => [
      t.requiredScopes,
      {
        name: t.name,
        ...(t.options.title ? { title: t.options.title } : {}),
        description: t.options.description,
        inputSchema: t.inputSchema,
        ...(t.options.annotations ? { annotations: t.options.annotations } : {}),
      },
    ]);
    return this.toolList;
  }
}
