import { TASK_STORE } from '../mcp-tasks.constants.js';
import type { TaskError, TaskStatus } from '../protocol/wire.types.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from './task-queries.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from './task.record.js';

/**
 * Where tasks live. The interface and its injection token share one name:
 * `@InjectTaskStore() store: TaskStore`.
 *
 * Every method is atomic with respect to the others, on one node or many, and a read sees every write that
 * completed before it began (listeners read a task again after each change and rely on that to send changes in
 * the store's order: a store reading from a lagging replica would need to order them itself).
 */
export interface TaskStore {
  /**
   * Inserts `task` (with its lease, if any) unless its owner or the server is at a limit; a task is
   * live while neither terminal nor expired at `task.createdAt`. Durable once it resolves.
   */
  create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome>;
  /** The task, or `undefined` when it does not exist or has expired at `now`. */
  get(id: string, now: number): Promise<TaskRecord | undefined>;
  /** Applies a change with `applyTaskChange` semantics (compare-and-set on a non-terminal task). */
  update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined>;
  /** Deletes up to `limit` tasks expired at `now`; returns how many it deleted. */
  sweep(now: number, limit: number): Promise<number>;
  /**
   * Sets `owner`'s lease until `until` on each of `ids` that is not terminal (a runner's heartbeat).
   * Unknown and terminal ids are ignored: a reclaimed task stays failed.
   */
  renewLeases(ids: string[], owner: string, until: number): Promise<void>;
  /**
   * Ends as `failed` with `error` up to `limit` non-terminal, unexpired tasks whose lease lapsed
   * before `now` (their runner died) and that mirror no upstream task; returns their ids. Each task
   * is reclaimed by one caller only, however many instances call this at once.
   */
  reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]>;
  /**
   * Optional (2025-11-25 `tasks/list` needs it): the owner's unexpired tasks, whole, newest first (`createdAt`
   * descending, then `id` descending), at most `query.limit` of them after `query.after`.
   */
  listByOwner?(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]>;
  /**
   * Optional (needed by the `upstreams` option): gives `owner` the lease (until `until`) on up to `limit` live,
   * unexpired tasks that mirror an upstream task (`upstream` set) and whose lease lapsed before `now`, and returns
   * them as updated. `reclaimExpiredLeases` leaves such tasks alone — their work runs upstream, so another
   * instance carries on following it. Each task is adopted by one caller only, however many call this at once.
   */
  adoptLapsedMirrors?(now: number, limit: number, owner: string, until: number): Promise<TaskRecord[]>;
  /**
   * Optional: the status of each of `ids` that exists and has not expired at `now` (the others are absent), in
   * one read. A runner re-reads the tasks it runs every `pollInterval` to notice one ended elsewhere; without this
   * method it calls `get` for each.
   */
  statuses?(ids: string[], now: number): Promise<Map<string, TaskStatus>>;
  /**
   * Optional (the operator console needs it): unexpired tasks matching `query`, newest first, one
   * page at a time.
   */
  listTasks?(query: TaskListQuery, now: number): Promise<TaskListPage>;
  /** Optional (the operator console needs it): unexpired tasks counted by status, tool and owner; lease holders. */
  taskCounts?(query: TaskCountsQuery, now: number): Promise<TaskCounts>;
  /** Optional (the operator console needs it): tasks created and ended per bucket, and run times per tool. */
  taskActivity?(query: TaskActivityQuery, now: number): Promise<TaskActivity>;
}

/** The store's injection token (`@InjectTaskStore()` injects it). */
export const TaskStore = TASK_STORE;

/** Whether `value` implements `TaskStore` (for the `store` option, which also takes a configuration). */
export const isTaskStore = (value: unknown): value is TaskStore =>
  !!value &&
  ['create', 'get', 'update', 'sweep', 'renewLeases', 'reclaimExpiredLeases'].every(
    (m) => typeof (value as Record<string, unknown>)[m] === 'function',
  );
