import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus, type QuestionAnswer } from '../events/task-event-bus.interface.js';
import { followThen } from '../events/task-event.topics.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { QuestionIds } from './question-id.js';

/**
 * How long a question waits for the follow of its run to take effect before it goes out anyway: a broker that is down
 * (or a follow stuck behind it) must not hold every in-request question back; an answer sent through this instance
 * still reaches it, one sent through another may then be lost as any event in an outage.
 */
export const FOLLOW_WAIT_MS = 5_000;

/**
 * The questions calls running in the request on this instance wait on, by JSON-RPC id, and the way to them for an
 * answer taken anywhere: settled at once when the call runs here, else relayed on the bus under the run's id, to the
 * instance that follows it while waiting (a bus that relays everything: to every instance, the others find nothing).
 */
@Injectable()
export class SyncQuestions implements OnModuleInit, OnModuleDestroy {
  readonly ids: QuestionIds;
  private readonly waiting = new Map<string, (answer: QuestionAnswer) => void>();
  private unsubscribe?: () => void;

  constructor(
    @Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
  ) {
    this.ids = new QuestionIds(options.requestStateSecret);
  }

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe((e) => {
      if (e.type === 'question-answered') this.settle(e.question, e.answer);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  /**
   * Waits for the answer to `id`, asked by `run` (one waiter per id; answers relayed to another instance arrive under
   * the run's id, followed while waiting); `ready` once that follow is in effect — the question goes out then, since
   * nothing but the bus carries its answer: one sent through another instance before then would be lost — or after
   * `FOLLOW_WAIT_MS` if the follow is not in effect by then. `ready` runs once. Returns the function that stops
   * waiting.
   */
  wait(id: string, run: string, onAnswer: (answer: QuestionAnswer) => void, ready: () => void): () => void {
    this.waiting.set(id, onAnswer);
    let asked = false;
    const ask = () => {
      if (asked) return;
      asked = true;
      clearTimeout(bound);
      ready();
    };
    const bound = setTimeout(ask, FOLLOW_WAIT_MS);
    const unfollow = followThen(this.bus, run, ask);
    return () => {
      asked = true;
      clearTimeout(bound);
      unfollow();
      if (this.waiting.get(id) === onAnswer) this.waiting.delete(id);
    };
  }

  /** Hands `answer` to the run that asked `id` (`run`): here, or through the bus — rejecting when it cannot. */
  async deliver(id: string, run: string, answer: QuestionAnswer): Promise<void> {
    if (this.settle(id, answer)) return;
    await this.bus.publish({ type: 'question-answered', taskId: run, question: id, answer });
  }

  /** Whether a run here waited for `id` (it has the answer now). */
  private settle(id: string, answer: QuestionAnswer): boolean {
    const onAnswer = this.waiting.get(id);
    if (!onAnswer) return false;
    this.waiting.delete(id);
    onAnswer(answer);
    return true;
  }
}
