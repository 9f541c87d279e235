import type {
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import type { TaskStore } from '../task-store.interface.js';

/**
 * Capability: listing and aggregates over every task. The operator console reads them; without them the console
 * still starts and its overview, activity and list answer 501 naming the missing methods (tasks still open and
 * cancel by id) — on purpose: the console is a window on the store, not what serves tasks. The health indicator
 * then leaves out `liveTasks`, and the shared-store warning does not look. Contract: the `queries` part of
 * `taskStoreContract`.
 * @publicApi
 */
export interface TaskQueries {
  /** Unexpired tasks matching `query`, newest first, one page at a time. */
  listTasks(query: TaskListQuery, now: number): Promise<TaskListPage>;
  /** Unexpired tasks counted by status, tool and owner; lease holders. */
  taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts>;
  /** Tasks created and ended per bucket, and run times per tool. */
  taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity>;
}

/** The methods of `TaskQueries`. */
export const TASK_QUERY_METHODS = ['listTasks', 'taskCounts', 'taskActivity'] as const;

/** Whether `store` implements `TaskQueries` (all three methods). */
export const hasTaskQueries = (store: TaskStore): store is TaskStore & TaskQueries =>
  TASK_QUERY_METHODS.every((m) => typeof (store as Partial<TaskQueries>)[m] === 'function');
