import { Inject, Injectable, type CanActivate } from '@nestjs/common';
import type { ToolContext } from '../common/tool-context.interface.js';
import { RequiredScopes } from '../decorators/required-scopes.decorator.js';
import { McpScopesGuard } from '../guards/mcp-scopes.guard.js';
import { MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import { NestPipelines, type Pipeline } from '../pipeline/nest-pipelines.js';
import type { ServedUpstreamTool } from './upstream.registry.js';

/**
 * The guards in front of a served upstream tool, run as for a local tool (type `mcp`, arguments `[args, ctx]`):
 * the app's global guards, then the scopes guard (`guards.scopes`) reading the upstream's `scopes` as
 * `@RequiredScopes` of the call. So a proxied call is refused exactly as a local one would be, before anything is
 * sent upstream.
 */
@Injectable()
export class UpstreamToolGuards {
  private readonly pipelines = new Map<string, Pipeline>();

  constructor(
    private readonly nest: NestPipelines,
    @Inject(McpScopesGuard) private readonly scopes: CanActivate,
  ) {}

  /** Resolves when every guard lets the call through; throws what a guard threw (403 for a plain `false`). */
  async authorize(served: ServedUpstreamTool, args: object, ctx: ToolContext): Promise<void> {
    let pipeline = this.pipelines.get(served.name);
    if (!pipeline) {
      // A stand-in handler named after the served tool, carrying the upstream's scopes.
      const handler = Object.defineProperty(function () {}, 'name', { value: served.name });
      RequiredScopes(...served.upstream.config.scopes)(handler);
      pipeline = this.nest.guardsOnly(this, handler, served.name, [this.scopes], MCP_CONTEXT_TYPE);
      this.pipelines.set(served.name, pipeline);
    }
    await pipeline(args, ctx);
  }
}
