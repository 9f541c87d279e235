import type { Logger } from '@nestjs/common';
import { stopReason, type TaskRunHandle } from '../context/task-run.handle.js';
import { FollowRecheck } from '../events/follow.recheck.js';
import { isTerminal, type TaskStatus } from '../protocol/wire.interface.js';
import { readStatuses } from '../store/read-statuses.js';
import type { TaskStore } from '../store/task-store.interface.js';

/**
 * Re-reads the tasks this instance runs every `pollInterval`, in one batch, and stops a run whose task was ended
 * elsewhere — cancelled through another instance when no bus relays it, reclaimed, or gone — so its `ctx.signal`
 * fires within a poll interval in every state, not only while it waits for input.
 */
export class RunningTasksWatcher {
  private timer?: NodeJS.Timeout;
  private busy = false;
  /** Runs rechecked once their follow took effect (`recheck`), those of one turn in one read. */
  private readonly rechecks = new FollowRecheck<TaskRunHandle>(
    (ids) => readStatuses(this.store, ids, Date.now()),
    (handle, status, id) => {
      if (this.running.get(id) === handle) this.react(handle, status, true);
    },
    (err) => this.logger.warn(`could not re-read running tasks: ${err.message}`),
  );

  constructor(
    private readonly store: TaskStore,
    private readonly running: ReadonlyMap<string, TaskRunHandle>,
    private readonly every: number,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check(), this.every);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * Re-reads `id`'s status for its run `handle` now, as a poll would — when the bus began relaying the task's events
   * here (a cancel or an answer sent before then was not): ended elsewhere, the run stops; `working` again (an answer
   * came while it asked), a waiting run wakes and reads it. One read for the runs rechecked in one turn.
   */
  recheck(id: string, handle: TaskRunHandle): void {
    this.rechecks.add(id, handle);
  }

  /** A run's read status: ended elsewhere (or gone), the run stops; `working` and `wake`, a waiting run wakes. */
  private react(handle: TaskRunHandle | undefined, status: TaskStatus | undefined, wake: boolean): void {
    // A run that returned is writing its own outcome: the store's answer to that says how it ended.
    if (!handle || handle.returned) return;
    if (status === undefined || isTerminal(status)) handle.abort(stopReason(status));
    else if (wake && status === 'working') handle.wake();
  }

  private async check(): Promise<void> {
    if (this.busy || this.running.size === 0) return;
    this.busy = true;
    try {
      const ids = [...this.running.keys()];
      const statuses = await readStatuses(this.store, ids, Date.now());
      for (const id of ids) this.react(this.running.get(id), statuses.get(id), false);
    } catch (err) {
      // The next poll (or the lease reaper, elsewhere) catches up.
      this.logger.warn(`could not re-read running tasks: ${(err as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
