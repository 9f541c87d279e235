import type { LoggingLevel } from '../common/logging-level.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest, InputRequests } from '../protocol/wire.interface.js';
import { BaseToolContext, type ToolCallOrigin } from './base-tool.context.js';
import { checkpointValue } from './checkpoint.value.js';
import { InputRequiredSignal } from './input-required.signal.js';
import { checkLevel, type LogSink } from './log.sink.js';
import type { ProgressSink } from './progress.sink.js';
import type { QuestionChannel } from './question.channel.js';

/**
 * The context of a call answered in the request. Input the client has not given yet ends the
 * round with an MRTR `input_required` answer listing every request asked so far in this run
 * (a tool that asks several at once with `Promise.all` gets them in one round); the retried call
 * re-runs the method with the answers. A 2025-era call whose client can be asked (`questions`) asks it now on the
 * call's stream and waits instead; an answer holds for its key for the rest of the run, as an MRTR answer does.
 */
export class SyncToolContext extends BaseToolContext {
  readonly taskId = undefined;
  readonly attempt = 1;
  /** Only in memory: a call answered in the request has no later attempt to read it. */
  checkpointed: unknown = undefined;
  /** Requests asked in this run that have no answer yet. */
  readonly pending: InputRequests = {};
  private given: Record<string, unknown> = {};
  /** Questions on the call's stream, by key: a key asked again while unanswered waits for the same answer. */
  private readonly asking = new Map<string, Promise<unknown>>();

  constructor(
    origin: ToolCallOrigin,
    readonly signal: AbortSignal,
    private readonly sink?: ProgressSink,
    private readonly questions?: QuestionChannel,
    private readonly logs?: LogSink,
    /** Lets go of the call's connection, when its reply can be resumed (`McpRequest.closeStream`). */
    private readonly release?: () => boolean,
  ) {
    super(origin);
  }

  override closeStream(): boolean {
    return this.release?.() ?? false;
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

  async log(level: LoggingLevel, data: unknown, logger?: string): Promise<void> {
    checkLevel(level);
    // The client closed the call: nothing more is sent for it.
    if (!this.cancelled) this.logs?.(level, data, logger);
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
    if (this.questions) return this.askNow(key, request, this.questions);
    this.pending[key] = request;
    throw new InputRequiredSignal(key, request);
  }

  private askNow(key: string, request: InputRequest, questions: QuestionChannel): Promise<unknown> {
    let asked = this.asking.get(key);
    if (!asked) {
      asked = questions.ask(key, request, this.signal).then((answer) => {
        this.given = { ...this.given, [key]: answer };
        return answer;
      });
      // Settled, it is an answer (kept in `given`) or a failure (asked again, if the tool tries again).
      void asked.then(
        () => this.asking.delete(key),
        () => this.asking.delete(key),
      );
      this.asking.set(key, asked);
    }
    return asked;
  }
}
