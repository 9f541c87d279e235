import { Injectable } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { McpAnswerHandler } from '../dispatcher/method-handler.interface.js';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import { RequestRounds } from '../dispatcher/request-rounds.js';
import { AppEnhancers } from '../pipeline/app-enhancers.js';
import { UpstreamFeatureCall } from '../gateway/upstream-feature.call.js';
import { HandlerInvoker } from '../pipeline/handler.invoker.js';
import { PromptRegistry } from '../prompts/prompt.registry.js';
import { internalError } from '../protocol/internal.error.js';
import { RpcError } from '../protocol/rpc.error.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { completeParamsOf, type CompleteParams } from './complete-params.js';
import { completionRef, type CompletionRef } from './completion-ref.js';
import { CompleterRegistry } from './completer.registry.js';
import type { CompletionContext } from './completion-context.js';
import { toCompletion } from './completion-result.normalizer.js';

type Answer = Record<string, unknown>;

/**
 * `completion/complete` (both eras): the prompt or resource template `ref` names must exist and have the argument
 * (`-32602`), and the caller must pass its guards — the app's, `@RequiredScopes` first, its own — as a get of the
 * prompt or a read of the template would (who may not get it learns nothing from its completions); then the
 * completer runs through its interceptors, pipes and filters, and what it returned is sent (at most 100 values). An
 * argument without a completer has no values.
 */
@Injectable()
export class CompletionCompleteHandler implements McpAnswerHandler {
  constructor(
    private readonly completers: CompleterRegistry,
    private readonly prompts: PromptRegistry,
    private readonly resources: ResourceRegistry,
    private readonly invoker: HandlerInvoker,
    private readonly rounds: RequestRounds,
    private readonly enhancers: AppEnhancers,
    private readonly upstreams: UpstreamFeatureCall,
  ) {}

  async handle(req: McpRequest): Promise<Answer> {
    // A prompt or template of an upstream's (the `upstreams` option); a local prompt of the same name wins.
    const named = req.params.ref as { name?: unknown } | undefined;
    const local = typeof named?.name === 'string' && this.prompts.get(named.name);
    if (!local && this.upstreams.servesCompletion(req.params)) return this.upstreams.complete(req);
    const call: McpCall = { method: req.method, id: req.id, params: req.params, principal: req.principal };
    const { params, ref } = await this.checked(req, call);
    // Its guards see the arguments filled in so far, as a get (or read) would see its arguments.
    const gate = await this.invoker.pipelineFor(ref.target, req.http, { ...call, ...ref.call });
    await gate.authorize(params.arguments, this.rounds.context(req, ref.name));
    if (!ref.arguments.includes(params.argument.name))
      throw RpcError.invalidParams(`${ref.label} has no argument ${params.argument.name}`);
    const completer = this.completers.get(ref.key, params.argument.name);
    if (!completer) return { resultType: 'complete', completion: { values: [] } };
    const context: CompletionContext = {
      ref: params.ref,
      argument: params.argument.name,
      arguments: params.arguments,
      principal: req.principal,
      signal: req.signal,
    };
    const pipeline = await this.invoker.pipelineFor(completer, req.http, { ...call, ...ref.call });
    // Called as `(value, context)`: what the pipeline passes as a method's `(args, ctx)`.
    const value = await pipeline.run(params.argument.value as never, context as unknown as ToolContext);
    try {
      return { resultType: 'complete', completion: toCompletion(value) };
    } catch (err) {
      throw internalError(`completer ${completer.instance.constructor.name}.${completer.methodName} failed`, err);
    }
  }

  /**
   * The params and what they name, or a refusal after the app-wide guards (the handler runs them: in the named
   * method's pipeline, else here). Without a completer the app advertises no `completions`, and the method does not
   * exist (`-32601`).
   */
  private async checked(req: McpRequest, call: McpCall): Promise<{ params: CompleteParams; ref: CompletionRef }> {
    try {
      if (this.completers.size === 0 && !this.upstreams.offersCompletions()) throw RpcError.methodNotFound(req.method);
      const params = completeParamsOf(req.params);
      return { params, ref: completionRef(params.ref, this.prompts, this.resources) };
    } catch (err) {
      await this.enhancers.run(req.http, call, () => Promise.resolve());
      throw err;
    }
  }
}
