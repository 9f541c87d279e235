import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from './task.record.js';

/**
 * Where tasks live. The interface and its injection token share one name:
 * `@Inject(TaskStore) store: TaskStore`.
 *
 * Every method is atomic with respect to the others, on one node or many.
 */
export interface TaskStore {
  /** Inserts `task` unless its owner (or the server) is at a limit. Durable once it resolves. */
  create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome>;
  /** The task, or `undefined` when it does not exist or has expired at `now`. */
  get(id: string, now: number): Promise<TaskRecord | undefined>;
  /** Applies a change with `applyTaskChange` semantics (compare-and-set on a non-terminal task). */
  update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined>;
  /** Deletes up to `limit` tasks expired at `now`; returns how many it deleted. */
  sweep(now: number, limit: number): Promise<number>;
}

export const TaskStore = Symbol('TaskStore');
