import { setTimeout as sleep } from 'node:timers/promises';
import type { Target } from './http.js';
import { getTask, TERMINAL } from './durable-calls.js';
import type { PhaseTally } from './tally.js';

/** One look at a task through `tasks/get`. */
export interface Seen {
  at: number;
  status: string;
  /** The keys of its outstanding questions. */
  asking: string[];
  message?: string;
}

/**
 * Watches tasks the way a client does — `tasks/get` every `everyMs` — and keeps every look, so a phase can tell
 * what a client could have seen (a question asked again, a stopped run's progress). Each round asks `target()`.
 */
export class TaskWatch {
  readonly seen = new Map<string, Seen[]>();
  private readonly tokens = new Map<string, string | undefined>();
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly target: () => Target,
    private readonly t: PhaseTally,
    private readonly everyMs = 400,
  ) {}

  /** Adds a task to watch (as the owner of `token`, with auth) from the next round on; starts on the first call. */
  watch(id: string, token?: string): void {
    if (!this.seen.has(id)) this.seen.set(id, []);
    this.tokens.set(id, token);
    this.running ??= this.loop();
  }

  /** What was seen of `id` from `from` on (a time in ms). */
  since(id: string, from: number): Seen[] {
    return (this.seen.get(id) ?? []).filter((s) => s.at >= from);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const target = this.target();
      await Promise.all(
        [...this.seen.entries()].map(async ([id, list]) => {
          // An ended task changes no more.
          if (TERMINAL.includes(list.at(-1)?.status ?? '')) return;
          const at = Date.now();
          const task = await getTask(target, this.t, id, this.tokens.get(id));
          if (task?.status)
            list.push({
              at,
              status: task.status,
              asking: Object.keys(task.inputRequests ?? {}),
              message: task.statusMessage,
            });
        }),
      );
      await sleep(this.everyMs);
    }
  }
}
