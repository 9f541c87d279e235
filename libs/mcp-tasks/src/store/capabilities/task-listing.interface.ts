import type { OwnerTasksQuery } from '../task-queries.interface.js';
import type { TaskRecord } from '../task.record.js';
import type { TaskStore } from '../task-store.interface.js';

/**
 * Capability: one owner's tasks, a page at a time. 2025-11-25 `tasks/list` reads it; without it that method is
 * not advertised (`capabilities.tasks.list` absent) and every other method works: the server carries on, on
 * purpose, since a store can serve every task without listing them. Contract: the `ownerListing` part of
 * `taskStoreContract`.
 * @publicApi
 */
export interface TaskListing {
  /**
   * The owner's unexpired tasks, whole, newest first (`createdAt` descending, then `id` descending), at most
   * `query.limit` of them after `query.after`.
   */
  listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]>;
}

/** Whether `store` implements `TaskListing`. */
export const hasTaskListing = (store: TaskStore): store is TaskStore & TaskListing =>
  typeof (store as Partial<TaskListing>).listByOwner === 'function';
