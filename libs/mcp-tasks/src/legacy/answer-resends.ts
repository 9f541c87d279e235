import { Logger } from '@nestjs/common';
import type { TaskEvent } from '../events/task-event-bus.interface.js';

type Answer = Extract<TaskEvent, { type: 'question-answered' }>;

/** Answers held for a receipt at most: past it the oldest is given up (logged), not memory without bound. */
export const MAX_HELD_ANSWERS = 1_000;

/**
 * The answers this instance relayed to a run on another instance and holds until that instance says it took them
 * (`question-received`): each is sent again every `every` ms, for at most `within` ms. An answer relayed while the
 * asking instance's link to the broker was down (not relayed to it, nor stored anywhere) so reaches it once the link
 * is back, instead of the call waiting out its `questionTimeout`.
 */
export class AnswerResends {
  private readonly logger = new Logger('McpTasks');
  private readonly held = new Map<string, { answer: Answer; until: number }>();
  private timer?: NodeJS.Timeout;
  private unfollow?: () => void;

  constructor(
    private readonly send: (answer: Answer) => Promise<void>,
    /** Follows the topic the receipts come back on, while any answer is held; returns the unfollow. */
    private readonly follow: () => () => void,
    private readonly every: number,
    private readonly within: number,
  ) {}

  hold(answer: Answer): void {
    this.unfollow ??= this.follow();
    this.held.delete(answer.question);
    this.held.set(answer.question, { answer, until: Date.now() + this.within });
    if (this.held.size > MAX_HELD_ANSWERS) {
      const [oldest] = this.held.keys();
      this.held.delete(oldest);
      this.logger.warn(`answer to ${oldest} no longer sent again: over ${MAX_HELD_ANSWERS} answers wait for receipts`);
    }
    this.timer ??= setInterval(() => this.resend(), this.every).unref();
  }

  received(question: string): void {
    this.held.delete(question);
    this.idle();
  }

  stop(): void {
    this.held.clear();
    this.idle();
  }

  private resend(): void {
    const now = Date.now();
    for (const [question, { answer, until }] of this.held) {
      if (until <= now) {
        this.held.delete(question);
        this.logger.debug(`answer to ${question} no longer sent again: no receipt within the questionTimeout`);
      } else void this.send(answer).catch(() => undefined); // the broker is down: the next round sends it
    }
    this.idle();
  }

  private idle(): void {
    if (this.held.size) return;
    clearInterval(this.timer);
    this.timer = undefined;
    this.unfollow?.();
    this.unfollow = undefined;
  }
}
