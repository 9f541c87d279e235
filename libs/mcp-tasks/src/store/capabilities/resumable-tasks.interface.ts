import type { TaskError } from '../../protocol/wire.interface.js';
import type { TaskRecord } from '../task.record.js';
import type { TaskStore } from '../task-store.interface.js';

/**
 * What one `adoptLapsedRuns` call did: the tasks it took over, and those it ended because no attempt was left.
 * @publicApi
 */
export interface LapsedRuns {
  /** Taken over by the caller, as updated (lease, `attempt` one more, status message naming the attempt). */
  adopted: TaskRecord[];
  /** Ended `failed` with the error given: their last allowed attempt had run. */
  exhausted: string[];
}

/**
 * Capability: tasks of tools that may run again from the start (the record's `resume` field) are taken over by
 * another instance — or the same one after a restart — when their runner stops, instead of being failed. A tool
 * asking for `resume` on a store without it runs as a plain task (one warning at startup). Contract: the
 * `resumable` part of `taskStoreContract`.
 * @publicApi
 */
export interface ResumableTasks {
  /**
   * For up to `limit` live, unexpired tasks with `resume` set whose lease lapsed before `now` (oldest lapse first):
   * a task below `resume.maxAttempts` gets `owner`'s lease until `until`, its `attempt` one more and the status
   * message `statusMessage(attempt)` (its status, questions and answers kept); one at its last attempt ends
   * `failed` with `exhausted(attempts)`. `reclaimExpiredLeases` leaves such tasks alone. Each task is taken by one
   * caller only, however many call this at once. With `server`, only tasks whose owner key names it (the
   * registration's `server.name`): several servers sharing one table each take over their own tasks only, never
   * another's whose tool they do not serve.
   */
  adoptLapsedRuns(
    now: number,
    limit: number,
    owner: string,
    until: number,
    notes: {
      statusMessage: (attempt: number, maxAttempts: number) => string;
      exhausted: (attempts: number) => TaskError;
    },
    server?: string,
  ): Promise<LapsedRuns>;
  /**
   * Gives up `owner`'s lease on each of `ids` it holds (a stopping instance hands its resumable tasks over): the
   * lease is lapsed at once, so the next `adoptLapsedRuns` anywhere takes them. Other ids are left alone.
   */
  releaseLeases(ids: string[], owner: string): Promise<void>;
}

/** Whether `store` implements `ResumableTasks`. */
export const hasResumableTasks = (store: TaskStore): store is TaskStore & ResumableTasks =>
  typeof (store as Partial<ResumableTasks>).adoptLapsedRuns === 'function' &&
  typeof (store as Partial<ResumableTasks>).releaseLeases === 'function';
