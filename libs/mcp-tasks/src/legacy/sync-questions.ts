import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus, type QuestionAnswer, type TaskEvent } from '../events/task-event-bus.interface.js';
import { randomUUID } from 'node:crypto';
import { followThen, followTopic } from '../events/task-event.topics.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { AnswerResends } from './answer-resends.js';
import { QuestionIds } from './question-id.js';

/**
 * How long a question waits for the follow of its run to take effect before it goes out anyway: a broker that is down
 * (or a follow stuck behind it) must not hold every in-request question back; an answer sent through this instance
 * still reaches it, one sent through another may then be lost as any event in an outage.
 */
export const FOLLOW_WAIT_MS = 5_000;

/** Questions asked here that wait no more, remembered (the oldest forgotten first) to acknowledge a re-sent answer. */
const REMEMBERED_DONE = 1_000;

/**
 * The questions calls running in the request on this instance wait on, by JSON-RPC id, and the way to them for an
 * answer taken anywhere: settled at once when the call runs here, else relayed on the bus under the run's id, to the
 * instance that follows it while waiting (a bus that relays everything: to every instance, the others find nothing).
 * A relayed answer is sent again until the asking instance says it took it (`AnswerResends`).
 */
@Injectable()
export class SyncQuestions implements OnModuleInit, OnModuleDestroy {
  readonly ids: QuestionIds;
  private readonly waiting = new Map<string, (answer: QuestionAnswer) => void>();
  /** Questions asked here that wait no more: an answer to one sent again is acknowledged, not relayed. */
  private readonly done = new Set<string>();
  private readonly resends: AnswerResends;
  /** The topic receipts for answers relayed from here come back on (followed while any is awaited). */
  private readonly receipts = `answers:${randomUUID()}`;
  private readonly stops: (() => void)[] = [];

  constructor(
    @Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
  ) {
    this.ids = new QuestionIds(options.requestStateSecret);
    const { pollInterval, questionTimeout } = options;
    const follow = () => followTopic(bus, this.receipts);
    this.resends = new AnswerResends((e) => bus.publish(e), follow, pollInterval, questionTimeout);
  }

  onModuleInit(): void {
    this.stops.push(
      this.bus.subscribe((e) => {
        if (e.type === 'question-received' && e.taskId === this.receipts) this.resends.received(e.question);
        if (e.type !== 'question-answered') return;
        if (this.settle(e.question, e.answer) || this.done.has(e.question)) void this.acknowledge(e);
      }),
    );
  }

  onModuleDestroy(): void {
    for (const stop of this.stops.splice(0)) stop();
    this.resends.stop();
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
      if (this.waiting.get(id) === onAnswer) this.close(id);
    };
  }

  /**
   * Hands `answer` to the run that asked `id` (`run`): here, or through the bus — rejecting when it cannot. A late
   * answer to a question asked here is dropped; one relayed is held and sent again until its receipt comes back.
   */
  async deliver(id: string, run: string, answer: QuestionAnswer): Promise<void> {
    if (this.settle(id, answer) || this.done.has(id)) return;
    const event = { type: 'question-answered', taskId: run, question: id, answer, replyTo: this.receipts } as const;
    // Held before it goes: its receipt may come back before the publish resolves. A bus without a health check
    // relays in this process only: nobody else could take the answer.
    if (this.bus.health) this.resends.hold(event);
    await this.bus.publish(event).catch((err: unknown) => {
      this.resends.received(id);
      throw err;
    });
  }

  /** Whether a run here waited for `id` (it has the answer now). */
  private settle(id: string, answer: QuestionAnswer): boolean {
    const onAnswer = this.waiting.get(id);
    if (!onAnswer) return false;
    this.close(id);
    onAnswer(answer);
    return true;
  }

  private close(id: string): void {
    this.waiting.delete(id);
    this.done.add(id);
    if (this.done.size > REMEMBERED_DONE) this.done.delete(this.done.values().next().value as string);
  }

  /** Tells the instance that relayed `e` that the run took it (a lost receipt: it sends the answer again). */
  private async acknowledge(e: Extract<TaskEvent, { type: 'question-answered' }>): Promise<void> {
    if (e.replyTo === undefined || e.replyTo === this.receipts) return;
    await this.bus
      .publish({ type: 'question-received', taskId: e.replyTo, question: e.question })
      .catch(() => undefined);
  }
}
