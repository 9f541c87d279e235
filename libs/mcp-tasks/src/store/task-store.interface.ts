import { TASK_STORE } from '../mcp-tasks.constants.js';
import type { TaskError, TaskStatus } from '../protocol/wire.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from './task.record.js';

/**
 * Where tasks live: what every store must do (the core contract). The interface and its injection token share one
 * name: `@InjectTaskStore() store: TaskStore`. What some features need beyond it, a store declares by implementing
 * the capability interfaces: `TaskListing` (2025-11-25 `tasks/list`), `TaskMirrors` (the `upstreams` option),
 * `TaskQueries` (the operator console), `ResumableTasks` (tools with `resume`) and `SharedTaskStore` (tasks shared
 * across processes). Each says what a feature does without it: fail at startup, naming the feature and the store, or
 * carry on without the part that needs it. A capability is declared by having its members, checked by a type guard
 * (`hasTaskListing`, …), as Nest checks a provider for `onModuleInit`: a custom store that has the methods has the
 * capability, with no list of names that could disagree with what it implements.
 *
 * Every method is atomic with respect to the others, on one node or many, and a read sees every write that
 * completed before it began (listeners read a task again after each change and rely on that to send changes in the
 * store's order: a store reading from a lagging replica would need to order them itself).
 * @publicApi
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
   * Sets `owner`'s lease until `until` on each of `ids` that is not terminal and whose lease `owner` holds, or
   * nobody does (a runner's heartbeat). Unknown and terminal ids are ignored (a reclaimed task stays failed), and
   * so are tasks another instance took over: a runner paused past its lease must not take its task back. Resolves
   * to the ids renewed (a store of an earlier release may resolve to nothing: then no run is stopped for it).
   */
  renewLeases(ids: string[], owner: string, until: number): Promise<string[] | void>;
  /**
   * Ends as `failed` with `error` up to `limit` non-terminal, unexpired tasks whose lease lapsed
   * before `now` (their runner died) and that mirror no upstream task; returns their ids. Each task
   * is reclaimed by one caller only, however many instances call this at once.
   */
  reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]>;
  /**
   * Optional: the status of each of `ids` that exists and has not expired at `now` (the others are absent), in
   * one read. A runner re-reads the tasks it runs every `pollInterval` to notice one ended elsewhere; without this
   * method it calls `get` for each (so nothing needs it: it is a faster path, not a capability).
   */
  statuses?(ids: string[], now: number): Promise<Map<string, TaskStatus>>;
}

/** The store's injection token (`@InjectTaskStore()` injects it). */
export const TaskStore = TASK_STORE;

/** Whether `value` implements `TaskStore` (for the `store` option, which also takes a configuration). */
export const isTaskStore = (value: unknown): value is TaskStore =>
  !!value &&
  ['create', 'get', 'update', 'sweep', 'renewLeases', 'reclaimExpiredLeases'].every(
    (m) => typeof (value as Record<string, unknown>)[m] === 'function',
  );
