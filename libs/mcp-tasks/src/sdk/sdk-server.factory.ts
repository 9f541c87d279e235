import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/server';
import type { Principal } from '../common/principal.interface.js';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS, TASKS_REQUIRED } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { McpFeatures } from './mcp-features.js';
import { ToolList } from './tool-list.js';

/** Lists are the same for every caller here, so shared caches may keep them a minute. */
const LIST_CACHE = { ttlMs: 60_000, cacheScope: 'public' as const };
const LISTS = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list'] as const;

/**
 * The SDK server that answers one request: `server/discover`, the lists (with each tool's `execution.taskSupport`
 * for a 2025-11-25 client), `ping`. Built per request for its caller, as the SDK asks; everything it needs is
 * prepared once. (2025-era `initialize`, `tools/call` and `tasks/*` are the `legacy/` wire's.)
 */
@Injectable()
export class SdkServerFactory {
  private readonly capabilities: Record<string, object>;
  private readonly cacheHints: Record<string, { ttlMs: number; cacheScope: 'public' | 'private' }>;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly tools: ToolList,
    private readonly features: McpFeatures,
  ) {
    // Resources, prompts and completions come from `features`, advertised only when the app has them.
    this.capabilities = { tools: {}, logging: {} };
    // With authentication the tool list depends on the caller's scopes: caches must keep it private.
    const hint = { ...LIST_CACHE, ...(options.auth ? { cacheScope: 'private' as const } : {}) };
    this.cacheHints = Object.fromEntries(LISTS.map((method) => [method, hint]));
  }

  /** `version`: the request's `MCP-Protocol-Version` header. */
  create(era: 'legacy' | 'modern', caller: Principal, version?: string | null): Server {
    const { server, tasks } = this.options;
    const extensions = tasks ? { extensions: { ...TASKS_REQUIRED.extensions } } : {};
    const s = new Server(
      { name: server.name, version: server.version },
      {
        capabilities: { ...this.capabilities, ...this.features.capabilities(), ...extensions },
        instructions: server.instructions,
        cacheHints: this.cacheHints,
      },
    );
    const taskSupport = tasks && era === 'legacy' && version === LEGACY_PROTOCOL_VERSION;
    s.setRequestHandler('tools/list', () => ({ tools: this.tools.visibleTo(caller, taskSupport) as never }));
    for (const [method, list] of this.features.lists()) {
      s.setRequestHandler(method as 'resources/list', (r) => list(caller, r.params ?? {}) as never);
    }
    return s;
  }
}
