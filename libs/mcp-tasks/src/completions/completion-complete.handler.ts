import { Injectable } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { ToolContext } from '../common/tool-context.interface.js';
import type { McpAnswerHandler } from '../dispatcher/method-handler.interface.js';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import { RequestRounds } from '../dispatcher/request-rounds.js';
import { AppEnhancers } from '../pipeline/app-enhancers.js';
import { HandlerInvoker } from '../pipeline/handler.invoker.js';
import { PromptRegistry } from '../prompts/prompt.registry.js';
import { internalError } from '../protocol/internal.error.js';
import { RpcError } from '../protocol/rpc.error.js';
import { completeParamsOf, type CompleteParams } from './complete-params.js';
import type { CompleterDefinition } from './completer-definition.js';
import { CompleterRegistry } from './completer.registry.js';
import type { CompletionContext } from './completion-context.js';
import { toCompletion } from './completion-result.normalizer.js';

type Answer = Record<string, unknown>;

/**
 * `completion/complete` (both eras): what `ref` names must exist and declare the argument (`-32602`), and the caller
 * must pass its guards — the app's, `@RequiredScopes` first, its own — as a get of it would (a caller who may not
 * get a prompt learns nothing from its completions); then the completer runs through its interceptors, pipes and
 * filters, and what it returned is sent (at most 100 values). An argument without a completer has no values.
 */
@Injectable()
export class CompletionCompleteHandler implements McpAnswerHandler {
  constructor(
    private readonly completers: CompleterRegistry,
    private readonly prompts: PromptRegistry,
    private readonly invoker: HandlerInvoker,
    private readonly rounds: RequestRounds,
    private readonly enhancers: AppEnhancers,
  ) {}

  async handle(req: McpRequest): Promise<Answer> {
    const call: McpCall = { method: req.method, id: req.id, params: req.params, principal: req.principal };
    const params = await this.checked(req, call);
    const completer = await this.authorized(req, call, params);
    if (!completer) return { resultType: 'complete', completion: { values: [] } };
    const context: CompletionContext = {
      ref: params.ref,
      argument: params.argument.name,
      arguments: params.arguments,
      principal: req.principal,
      signal: req.signal,
    };
    const pipeline = await this.invoker.pipelineFor(completer, req.http, { ...call, ...refOf(params) });
    // Called as `(value, context)`: what the pipeline passes as a method's `(args, ctx)`.
    const value = await pipeline.run(params.argument.value as never, context as unknown as ToolContext);
    try {
      return { resultType: 'complete', completion: toCompletion(value) };
    } catch (err) {
      throw internalError(`completer ${completer.instance.constructor.name}.${completer.methodName} failed`, err);
    }
  }

  /**
   * The params, or a refusal after the app-wide guards (the handler runs them: in the prompt's pipeline, else
   * here). Without a completer the app advertises no `completions`, and the method does not exist (`-32601`).
   */
  private async checked(req: McpRequest, call: McpCall): Promise<CompleteParams> {
    try {
      if (this.completers.size === 0) throw RpcError.methodNotFound(req.method);
      const params = completeParamsOf(req.params);
      if (params.ref.type === 'ref/resource')
        throw RpcError.invalidParams(`Unknown resource template: ${params.ref.uri}`);
      if (!this.prompts.get(params.ref.name)) throw RpcError.invalidParams(`Unknown prompt: ${params.ref.name}`);
      return params;
    } catch (err) {
      await this.enhancers.run(req.http, call, () => Promise.resolve());
      throw err;
    }
  }

  /** Past the prompt's guards (with the arguments filled in so far): the argument's completer, if any. */
  private async authorized(req: McpRequest, call: McpCall, params: CompleteParams) {
    const { ref, argument } = params;
    const prompt = this.prompts.get((ref as { name: string }).name)!;
    const gate = await this.invoker.pipelineFor(prompt, req.http, { ...call, prompt: prompt.name });
    await gate.authorize(params.arguments, this.rounds.context(req, prompt.name));
    if (!prompt.arguments.some((a) => a.name === argument.name))
      throw RpcError.invalidParams(`Prompt ${prompt.name} has no argument ${argument.name}`);
    return this.completers.get(`prompt ${prompt.name}`, argument.name) as CompleterDefinition | undefined;
  }
}

const refOf = (params: CompleteParams): Partial<McpCall> =>
  params.ref.type === 'ref/prompt' ? { prompt: params.ref.name } : {};
