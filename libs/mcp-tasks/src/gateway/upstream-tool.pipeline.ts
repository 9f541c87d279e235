import { ForbiddenException, Inject, Injectable, type CanActivate } from '@nestjs/common';
import type { HttpContext } from '../common/http-context.interface.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import { RequiredScopes } from '../decorators/required-scopes.decorator.js';
import { McpScopesGuard } from '../guards/mcp-scopes.guard.js';
import { MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import { NestPipelines, type Pipeline } from '../pipeline/nest-pipelines.js';
import { callPassingStopsOn } from '../pipeline/stops-passed-on.js';
import { ProxiedCallContext } from './proxied-call.context.js';
import type { ServedUpstreamTool } from './upstream.registry.js';

type Answer = Record<string, unknown>;

/** `appCode`: whether the app's code runs in them (else they get Node's objects on the fast path, or are skipped). */
interface Pipelines {
  authorize: Pipeline;
  run: Pipeline;
  appCode: boolean;
  /** The stand-in the pipelines were built around (it carries the upstream's scopes). */
  method: Function;
}

/** One proxied call as its Nest pipeline sees it. */
export interface ProxiedStep {
  http: HttpContext;
  call: McpCall;
  args: object;
  context: ToolContext;
}

/**
 * The Nest pipeline of a served upstream tool, as a local tool has one (type `mcp`, arguments `[req, res, McpCall]`):
 * the app's global guards, then the scopes guard (`guards.scopes`) reading the upstream's `scopes` as
 * `@RequiredScopes` — so a call is refused exactly as a local one would be, before anything goes upstream — and the
 * app's global interceptors and filters around the forwarding itself. When none of the app's code would run in it
 * (`appCode`: no app enhancers, the library's own scopes guard), the guard is asked and the forwarding called without
 * Nest's pipelines around them, which would then run no interceptor and no filter but Nest's own (it passes the
 * error on): the same outcome without their promises and closures on every proxied call.
 */
@Injectable()
export class UpstreamToolPipeline {
  private readonly pipelines = new Map<string, Pipelines>();
  /** The forwarding of each call in flight, found again by its `ToolContext` inside the pipeline. */
  private readonly forwards = new WeakMap<ToolContext, () => Promise<Answer>>();

  constructor(
    private readonly nest: NestPipelines,
    @Inject(McpScopesGuard) private readonly scopes: CanActivate,
  ) {}

  /** Resolves when every guard lets the call through; throws what a guard threw (403 for a plain `false`). */
  async authorize(served: ServedUpstreamTool, step: ProxiedStep): Promise<void> {
    const pipeline = this.pipelineOf(served);
    const [req, res, call] = this.argsOf(pipeline.appCode, served, step);
    if (pipeline.appCode) return void (await pipeline.authorize(req, res, call));
    // The library's own guard decides at once; `false` refuses as Nest's guards consumer does.
    const ec = new ProxiedCallContext(UpstreamToolPipeline, pipeline.method, req, res, call);
    if (!(this.scopes as McpScopesGuard).canActivate(ec)) throw new ForbiddenException('Forbidden resource');
  }

  /** `forward` behind the interceptors and filters; what it answers (or throws) after them. */
  async run(served: ServedUpstreamTool, step: ProxiedStep, forward: () => Promise<Answer>): Promise<Answer> {
    const pipeline = this.pipelineOf(served);
    if (!pipeline.appCode) return callPassingStopsOn(forward, undefined, []) as Promise<Answer>;
    this.forwards.set(step.context, forward);
    return (await pipeline.run(...this.argsOf(pipeline.appCode, served, step))) as Answer;
  }

  /** As a local tool's (`HandlerInvoker`): the platform's objects only when the app's code may read them. */
  private argsOf(appCode: boolean, served: ServedUpstreamTool, step: ProxiedStep): [unknown, unknown, McpCall] {
    const { http, call, args, context } = step;
    const objects = appCode || !http.node ? http : http.node;
    // The keys first, then the spread (`call` has none of them): spread-then-keys is V8's slow path, ~1–5 µs.
    return [objects.req, objects.res, { tool: served.name, args, context, ...call }];
  }

  private pipelineOf(served: ServedUpstreamTool): Pipelines {
    let pipeline = this.pipelines.get(served.name);
    if (!pipeline) {
      const forwards = this.forwards;
      // A stand-in method named after the served tool, carrying the upstream's scopes.
      const method = Object.defineProperty(
        function (_args: object, context: ToolContext): Promise<Answer> {
          return forwards.get(context)!();
        },
        'name',
        { value: served.name },
      );
      RequiredScopes(...served.upstream.config.scopes)(method);
      pipeline = {
        authorize: this.nest.guardsOnly(this, method, served.name, [this.scopes], MCP_CONTEXT_TYPE),
        run: this.nest.withoutGuards(this, method, served.name, [], MCP_CONTEXT_TYPE),
        appCode: this.scopes.constructor !== McpScopesGuard || this.nest.runsAppCode(this, method, served.name),
        method,
      };
      this.pipelines.set(served.name, pipeline);
    }
    return pipeline;
  }
}
