import type { LoggingLevel } from '../common/logging-level.js';
import { inputErrorOf } from '../input/input-error.mapper.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import { isTerminal, type InputRequest } from '../protocol/wire.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { TaskChange, TaskRecord, UpdateOutcome } from '../store/task.record.js';
import { BaseToolContext, progressText, type ToolCallOrigin } from './base-tool.context.js';
import { checkpointValue } from './checkpoint.value.js';
import { checkLevel } from './log.sink.js';
import { TaskCancelledError } from './task-cancelled.error.js';
import { stopReason, type TaskRunEnd, type TaskRunHandle } from './task-run.handle.js';

/** The changes a run makes to its task (the runner adds the run's attempt to each). */
export type RunChange = Extract<TaskChange, { kind: 'progress' | 'ask' | 'finish' | 'checkpoint' }>;

/**
 * The context of a tool running as a task: input moves the task to `input_required` and waits for
 * `tasks/update` (woken by the event bus, re-reading the store every `pollInterval` regardless). A later attempt
 * of a resumable task starts from the answers and the checkpoint the task holds.
 */
export class TaskToolContext extends BaseToolContext {
  readonly taskId: string;
  readonly signal: AbortSignal;
  readonly attempt: number;
  checkpointed: unknown;
  override readonly runEnded: Promise<TaskRunEnd | null>;
  private answers: Record<string, unknown>;
  /** A 2025-11-25 client may answer with an error (kept as an input-error answer). */
  private readonly answersMayFail: boolean;

  constructor(
    origin: ToolCallOrigin,
    task: TaskRecord,
    private readonly store: TaskStore,
    /** Applies a change through the runner, at this run's attempt; the runner tells listeners about it. */
    private readonly apply: (change: RunChange) => Promise<UpdateOutcome | undefined>,
    private readonly handle: TaskRunHandle,
    private readonly pollInterval: number,
  ) {
    super(origin);
    this.taskId = task.id;
    this.signal = handle.controller.signal;
    this.runEnded = handle.ended;
    this.attempt = handle.attempt;
    this.checkpointed = task.checkpoint;
    this.answers = { ...task.inputResponses };
    this.answersMayFail = task.generation === '2025-11-25';
  }

  async progress(done: number, total?: number, message?: string): Promise<void> {
    if (this.cancelled) return;
    // Progress is advisory: a store hiccup must not fail the tool.
    await this.apply({ kind: 'progress', statusMessage: progressText(done, total, message) }).catch(() => undefined);
  }

  /** A task has no request stream to log on (2026-07-28 has none; a 2025 task's call was answered at once). */
  async log(level: LoggingLevel, _data: unknown, _logger?: string): Promise<void> {
    checkLevel(level);
  }

  async checkpoint(value: unknown): Promise<void> {
    const stored = checkpointValue(value);
    this.signal.throwIfAborted();
    const outcome = await this.retrying(() => this.apply({ kind: 'checkpoint', value: stored }));
    if (outcome?.changed) {
      this.checkpointed = stored;
      return;
    }
    // Not stored: the task ended or is gone, or another attempt holds it (the runner stopped this run then).
    this.handle.abort(stopReason(outcome?.task.status));
    throw this.signal.reason;
  }

  protected async ask(key: string, request: InputRequest): Promise<unknown> {
    if (Object.hasOwn(this.answers, key)) return this.answered(key, request);
    // Only request kinds the call that started the task declared (the spec leaves this open; see docs/input.md).
    this.requireCapability(request);
    let outcome = await this.retrying(() => this.apply({ kind: 'ask', requests: { [key]: request } }));
    while (outcome && !isTerminal(outcome.task.status) && !this.cancelled) {
      if (Object.hasOwn(outcome.task.inputResponses, key)) break;
      await this.handle.waitForChange(this.pollInterval);
      const task = await this.retrying(() => this.store.get(this.taskId, Date.now()));
      outcome = task && { task, changed: false };
    }
    // Ended elsewhere (cancelled through another instance, reclaimed) or gone: the run stops here too.
    if (!outcome || isTerminal(outcome.task.status)) this.handle.abort(stopReason(outcome?.task.status));
    if (outcome) this.answers = { ...outcome.task.inputResponses };
    if (Object.hasOwn(this.answers, key)) return this.answered(key, request);
    // Cancelled (or expired) while waiting: an elicitation reads as cancelled, anything else throws.
    if (request.method === 'elicitation/create') return { action: 'cancel' };
    throw new TaskCancelledError();
  }

  /** The answer to `key`, or the error the client gave instead. */
  private answered(key: string, request: InputRequest): unknown {
    const failed = this.answersMayFail ? inputErrorOf(this.answers[key]) : undefined;
    if (!failed) return this.answers[key];
    throw new RpcError(
      RpcCode.InternalError,
      `The client could not answer ${request.method} (${failed.code}: ${failed.message})`,
    );
  }

  /** A store call retried every `pollInterval` while the store is unreachable (or until cancelled). */
  private async retrying<T>(call: () => Promise<T>): Promise<T | undefined> {
    for (;;) {
      try {
        return await call();
      } catch {
        if (this.cancelled) return undefined;
        await this.handle.waitForChange(this.pollInterval);
      }
    }
  }
}
