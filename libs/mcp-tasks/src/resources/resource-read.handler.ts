import { Inject, Injectable } from '@nestjs/common';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import type { McpAnswerHandler } from '../dispatcher/method-handler.interface.js';
import { RequestRounds } from '../dispatcher/request-rounds.js';
import { MCP_TASKS_OPTIONS, MODERN_PROTOCOL_VERSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { AppEnhancers } from '../pipeline/app-enhancers.js';
import { UpstreamFeatureCall } from '../gateway/upstream-feature.call.js';
import { HandlerInvoker } from '../pipeline/handler.invoker.js';
import { internalError } from '../protocol/internal.error.js';
import { RpcError } from '../protocol/rpc.error.js';
import { contentsOf } from './resource-contents.js';
import type { ResourceDefinition } from './resource-definition.js';
import { resourceNotFound } from './resource-not-found.error.js';
import { validatedParams } from './resource-params.validator.js';
import { ResourceRegistry } from './resource.registry.js';

/**
 * `resources/read`: the resource or template serving the URI (none: the app-wide enhancers, then not found), its
 * guards (the scopes guard first: a caller without the scopes learns nothing, and nothing is read), the template's
 * variables validated, then the method through its interceptors, pipes and filters, in the request — asking for
 * input as an MRTR round on 2026-07-28, on the request's stream before — and its value made `contents`.
 */
@Injectable()
export class ResourceReadHandler implements McpAnswerHandler {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly invoker: HandlerInvoker,
    private readonly rounds: RequestRounds,
    private readonly enhancers: AppEnhancers,
    private readonly upstreams: UpstreamFeatureCall,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  async handle(req: McpRequest): Promise<Record<string, unknown>> {
    const uri: unknown = req.params.uri;
    const base = { method: 'resources/read', id: req.id, params: req.params, principal: req.principal };
    if (typeof uri !== 'string') throw RpcError.invalidParams('params.uri must be a string');
    const resolved = this.registry.resolve(uri);
    // A URI of an upstream's (the `upstreams` option) when no resource of the app serves it.
    if (!resolved && this.upstreams.servesUri(uri)) return this.upstreams.read(req);
    if (!resolved) {
      await this.enhancers.run(req.http, base, () => Promise.resolve());
      throw resourceNotFound(uri, req.protocolVersion);
    }
    const { resource, variables } = resolved;
    const ctx = this.rounds.context(req, resource.name);
    const call = { ...base, resource: { uri, name: resource.name } };
    const pipeline = await this.invoker.pipelineFor(resource.target, req.http, call);
    await pipeline.authorize(variables, ctx);
    const dto = resource.kind === 'template' ? resource.options.params : undefined;
    const params = await validatedParams(dto, variables, uri);
    const bind = { key: `resources/read ${uri}`, args: {} };
    this.rounds.receive(req, ctx, bind);
    const ran = await this.rounds.run(req, ctx, bind, `resources/read ${uri}`, () => pipeline.run(params, ctx));
    if ('answer' in ran) return ran.answer;
    return this.result(req, resource, uri, ran.value);
  }

  private result(req: McpRequest, resource: ResourceDefinition, uri: string, value: unknown) {
    let contents;
    try {
      contents = contentsOf(value, uri, resource.options.mimeType);
    } catch (err) {
      throw internalError(`resources/read ${uri}`, err);
    }
    if (req.protocolVersion !== MODERN_PROTOCOL_VERSION) return { contents };
    // 2026-07-28 results of resources/read are cacheable: they say for how long, and by whom.
    const cache = resource.options.cache;
    const cacheScope = cache?.cacheScope ?? (this.options.auth ? 'private' : 'public');
    return { resultType: 'complete', contents, ttlMs: cache?.ttlMs ?? 0, cacheScope };
  }
}
