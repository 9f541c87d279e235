import type { InputRequest } from '../protocol/wire.types.js';
import { BaseToolContext, type CallInfo } from './base-tool.context.js';
import { InputRequiredSignal } from './input-required.signal.js';

/** Sends `notifications/progress` for the current request, when it carried a `progressToken`. */
export type ProgressSink = (progress: number, total?: number, message?: string) => Promise<void>;

/**
 * The context of a call answered in the request. Input the client has not given yet ends the
 * round with an MRTR `input_required` answer; the retried call re-runs the method with it.
 */
export class SyncToolContext extends BaseToolContext {
  readonly taskId = undefined;

  constructor(
    info: CallInfo,
    /** Answers from earlier rounds (sealed `requestState`) and this round's `inputResponses`. */
    readonly answers: Record<string, unknown>,
    readonly signal: AbortSignal,
    private readonly sink?: ProgressSink,
  ) {
    super(info);
  }

  async progress(done: number, total?: number, message?: string): Promise<void> {
    await this.sink?.(done, total, message);
  }

  protected async ask(key: string, request: InputRequest): Promise<unknown> {
    if (key in this.answers) return this.answers[key];
    throw new InputRequiredSignal(key, request);
  }
}
