import { Injectable } from '@nestjs/common';
import type { McpCall } from '../common/mcp-call.interface.js';
import type { McpAnswerHandler } from '../dispatcher/method-handler.interface.js';
import type { McpRequest } from '../dispatcher/mcp-request.interface.js';
import { RequestRounds } from '../dispatcher/request-rounds.js';
import { AppEnhancers } from '../pipeline/app-enhancers.js';
import { UpstreamFeatureCall } from '../gateway/upstream-feature.call.js';
import { HandlerInvoker } from '../pipeline/handler.invoker.js';
import { internalError } from '../protocol/internal.error.js';
import { RpcError } from '../protocol/rpc.error.js';
import { validatePromptArguments } from './prompt-arguments.validator.js';
import type { PromptDefinition } from './prompt-definition.js';
import { toPromptResult } from './prompt-result.normalizer.js';
import { PromptRegistry } from './prompt.registry.js';

/** What guards see of the arguments: the object as sent (validation comes after them). */
const rawArguments = (raw: unknown): object => (raw && typeof raw === 'object' ? raw : {});

/**
 * `prompts/get` (both eras: the 2025 wire forwards it here): the prompt's guards (`@RequiredScopes` first), its
 * arguments checked (`-32602`), then its method through its pipeline — which may ask for input (an MRTR round on
 * 2026-07-28, a question on the stream on the 2025 revisions) — and what it returned as messages.
 */
@Injectable()
export class PromptGetHandler implements McpAnswerHandler {
  constructor(
    private readonly registry: PromptRegistry,
    private readonly invoker: HandlerInvoker,
    private readonly rounds: RequestRounds,
    private readonly enhancers: AppEnhancers,
    private readonly upstreams: UpstreamFeatureCall,
  ) {}

  async handle(req: McpRequest): Promise<Record<string, unknown>> {
    // A prompt of an upstream's (the `upstreams` option); a local prompt of the same name wins.
    const name: unknown = req.params.name;
    if (typeof name === 'string' && !this.registry.get(name) && this.upstreams.servesPrompt(name))
      return this.upstreams.getPrompt(req);
    const call: McpCall = { method: req.method, id: req.id, params: req.params, principal: req.principal };
    const prompt = await this.promptNamed(req, call);
    const ctx = this.rounds.context(req, prompt.name);
    const pipeline = await this.invoker.pipelineFor(prompt, req.http, { ...call, prompt: prompt.name });
    // Guards first: a caller they refuse learns nothing of the arguments' rules or the round's state.
    await pipeline.authorize(rawArguments(req.params.arguments), ctx);
    const args = await validatePromptArguments(prompt.name, prompt.options.args, req.params.arguments);
    const bind = { key: `prompts/get ${prompt.name}`, args: req.params.arguments ?? {} };
    this.rounds.receive(req, ctx, bind);
    const ran = await this.rounds.run(req, ctx, bind, `prompt ${prompt.name} failed`, () => pipeline.run(args, ctx));
    if ('answer' in ran) return ran.answer;
    try {
      return { resultType: 'complete', ...toPromptResult(ran.value, prompt.options.description) };
    } catch (err) {
      throw internalError(`prompt ${prompt.name} returned what cannot be sent`, err);
    }
  }

  /**
   * The prompt; an unknown one is `-32602`, after the app-wide guards (the handler runs them: in the prompt's
   * pipeline, else here). An app without prompts does not have the method (`-32601`): it advertises no `prompts`.
   */
  private async promptNamed(req: McpRequest, call: McpCall): Promise<PromptDefinition> {
    const name: unknown = req.params.name;
    const prompt = typeof name === 'string' ? this.registry.get(name) : undefined;
    if (prompt) return prompt;
    await this.enhancers.run(req.http, call, () => Promise.resolve());
    if (this.registry.list().length === 0 && !this.upstreams.offersPrompts()) throw RpcError.methodNotFound(req.method);
    throw RpcError.invalidParams(typeof name === 'string' ? `Unknown prompt: ${name}` : 'params.name must be a string');
  }
}
