import { isValidInputResponse } from '../input/input-response.validator.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest, InputRequests } from '../protocol/wire.interface.js';
import { BaseToolContext, type ToolCallOrigin } from './base-tool.context.js';
import { checkpointValue } from './checkpoint.value.js';
import { InputRequiredSignal } from './input-required.signal.js';
import type { ProgressSink } from './progress.sink.js';

/**
 * The context of a call answered in the request. Input the client has not given yet ends the
 * round with an MRTR `input_required` answer listing every request asked so far in this run
 * (a tool that asks several at once with `Promise.all` gets them in one round); the retried call
 * re-runs the method with the answers.
 */
export class SyncToolContext extends BaseToolContext {
  readonly taskId = undefined;
  readonly attempt = 1;
  /** Only in memory: a call answered in the request has no later attempt to read it. */
  checkpointed: unknown = undefined;
  /** Requests asked in this run that have no answer yet. */
  readonly pending: InputRequests = {};
  private given: Record<string, unknown> = {};

  constructor(
    origin: ToolCallOrigin,
    readonly signal: AbortSignal,
    private readonly sink?: ProgressSink,
  ) {
    super(origin);
  }

  /** Answers from earlier rounds (sealed `requestState`) and this round's answers to what they asked. */
  get answers(): Record<string, unknown> {
    return this.given;
  }

  /** Takes the call's answers, once its guards let it through. */
  receive(answers: Record<string, unknown>): void {
    this.given = answers;
  }

  async progress(done: number, total?: number, message?: string): Promise<void> {
    await this.sink?.(done, total, message);
  }

  async checkpoint(value: unknown): Promise<void> {
    this.checkpointed = checkpointValue(value);
  }

  protected async ask(key: string, request: InputRequest): Promise<unknown> {
    this.requireCapability(request);
    if (Object.hasOwn(this.answers, key)) {
      if (!isValidInputResponse(request, this.answers[key])) {
        throw RpcError.invalidParams(`inputResponses.${key} is not a valid ${request.method} result`);
      }
      return this.answers[key];
    }
    this.pending[key] = request;
    throw new InputRequiredSignal(key, request);
  }
}
