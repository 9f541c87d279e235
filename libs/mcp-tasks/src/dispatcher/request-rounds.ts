import { HttpException, Inject, Injectable } from '@nestjs/common';
import { callOrigin } from '../context/base-tool.context.js';
import { InputRequiredSignal } from '../context/input-required.signal.js';
import { stoppedCall } from '../context/stopped-call.js';
import { SyncToolContext } from '../context/sync-tool.context.js';
import { digestOf } from '../input/request-state.binding.js';
import { RequestStateCodec } from '../input/request-state.codec.js';
import { askedIn, roundAnswers } from '../input/round-answers.js';
import { MCP_TASKS_OPTIONS, MODERN_PROTOCOL_VERSION } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { internalError } from '../protocol/internal.error.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { McpRequest } from './mcp-request.interface.js';

type Answer = Record<string, unknown>;

/** How a refusal names what runs, by method (`Prompt code_review needs the client capability …`). */
const SUBJECT: Record<string, string> = {
  'prompts/get': 'Prompt',
  'resources/read': 'Resource',
  'completion/complete': 'Completion of',
};

/** What a round's `requestState` is bound to: `key` names the call (`resources/read <uri>`), `args` its input. */
export interface RoundBinding {
  key: string;
  args: unknown;
}

/**
 * A method other than `tools/call` answered in the request with a tool's synchronous context (`SyncToolContext`):
 * on 2026-07-28 its questions end the round with `input_required` and a sealed `requestState` (bound to the caller,
 * `key` and the input), and the retried request runs it again with the answers; on a 2025-era wire they are asked
 * on the request's stream (`McpRequest.questions`), or refused by the context.
 */
@Injectable()
export class RequestRounds {
  private readonly states: RequestStateCodec;

  constructor(@Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions) {
    this.states = new RequestStateCodec(options.requestStateSecret, options.requestStateTtl);
  }

  /** The context of a run in this request; `name` is what it calls the method (its `tool`). */
  context(req: McpRequest, name: string): SyncToolContext {
    const origin = {
      ...callOrigin(req, name, req.traceContext),
      subject: `${SUBJECT[req.method] ?? req.method} ${name}`,
    };
    return new SyncToolContext(origin, req.signal, req.progress, req.questions);
  }

  /**
   * Gives `ctx` the answers of earlier rounds; call it once the guards let the request through (a refused caller
   * learns nothing of the state). Another wire has no MRTR: a `requestState` there is ignored.
   */
  receive(req: McpRequest, ctx: SyncToolContext, bind: RoundBinding): void {
    if (req.protocolVersion !== MODERN_PROTOCOL_VERSION || req.params.requestState === undefined) return;
    const { answers, asked } = this.states.open(req.params.requestState, this.binding(req, bind));
    ctx.receive(roundAnswers(answers, asked, req.inputResponses));
  }

  /**
   * Runs `step`: its value, or the round's `input_required` answer. JSON-RPC and HTTP errors propagate; anything
   * else is `-32603` (its text in the server log, `what` naming the run).
   */
  async run<T>(
    req: McpRequest,
    ctx: SyncToolContext,
    bind: RoundBinding,
    what: string,
    step: () => Promise<T>,
  ): Promise<{ value: T } | { answer: Answer }> {
    try {
      return { value: await step() };
    } catch (err) {
      if (ctx.signal.aborted) throw stoppedCall(ctx, err);
      if (err instanceof InputRequiredSignal && req.protocolVersion === MODERN_PROTOCOL_VERSION) {
        const state = { ...this.binding(req, bind), answers: ctx.answers, asked: askedIn(ctx.pending) };
        return {
          answer: { resultType: 'input_required', inputRequests: ctx.pending, requestState: this.states.seal(state) },
        };
      }
      if (err instanceof RpcError || err instanceof HttpException) throw err;
      throw internalError(what, err);
    }
  }

  private binding(req: McpRequest, bind: RoundBinding) {
    return { tool: bind.key, owner: req.principal.key, args: digestOf(bind.args ?? {}) };
  }
}
