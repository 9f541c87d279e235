import type { TaskStatus } from '../protocol/wire.interface.js';
import type { TaskRecord } from './task.record.js';

/**
 * A place in the listing order (newest first: `createdAt` descending, then `id` descending).
 * @publicApi
 */
export interface TaskCursor {
  createdAt: number;
  id: string;
}

/**
 * Filters and page of `TaskStore.listTasks`. Every filter is optional; they combine with AND.
 * @publicApi
 */
export interface TaskListQuery {
  /** Only tasks in one of these statuses. */
  status?: TaskStatus[];
  /** Only tasks of this tool. */
  tool?: string;
  /** Only tasks of this owner: stored under one of `ownerKeyForms(owner)`. */
  owner?: string;
  /** Only tasks whose owner key names this subject, through any client: it starts with one of `subjectKeyPrefixes`. */
  subject?: string;
  /** Only tasks created at or after this time (epoch ms). */
  createdFrom?: number;
  /** Only tasks created before this time (epoch ms). */
  createdBefore?: number;
  /** Tasks per page (at least 1). */
  limit: number;
  /** Start after this place: the `next` of the previous page. */
  after?: TaskCursor;
}

/**
 * One owner's tasks, a page at a time: `TaskStore.listByOwner` (2025-11-25 `tasks/list`).
 * @publicApi
 */
export interface OwnerTasksQuery {
  /** The owner key: tasks stored under any of `ownerKeyForms(owner)` are theirs. */
  owner: string;
  /**
   * Which session-bound tasks to include besides those bound to none: `undefined` every session's, `null` none,
   * a session id only that session's.
   */
  session?: string | null;
  /** Tasks per page (at least 1). */
  limit: number;
  /** Start after this place (newest first). */
  after?: TaskCursor;
}

/**
 * A task as the listing shows it: no answers, result or error (they may be large or private).
 * @publicApi
 */
export type TaskSummary = Pick<
  TaskRecord,
  'id' | 'owner' | 'tool' | 'status' | 'statusMessage' | 'createdAt' | 'updatedAt' | 'expiresAt'
> & {
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** Keys of the requests the task is waiting on. */
  inputKeys: string[];
};

/**
 * One page of `listTasks`.
 * @publicApi
 */
export interface TaskListPage {
  tasks: TaskSummary[];
  /** Unexpired tasks matching the filters, over all pages. */
  total: number;
  /** Where the next page starts; absent on the last page. */
  next?: TaskCursor;
}

/**
 * Sizes of `TaskStore.taskCounts`.
 * @publicApi
 */
export interface TaskCountsQuery {
  /** Rows at most in each ranking (owners, instances). */
  top: number;
}

/**
 * Counts over the unexpired tasks a store holds at `now`.
 * @publicApi
 */
export interface TaskCounts {
  byStatus: Record<TaskStatus, number>;
  /** Every tool with tasks, most tasks first. */
  byTool: { tool: string; total: number; byStatus: Partial<Record<TaskStatus, number>> }[];
  /** The `top` owners with the most tasks (any status), with how many of them are live. */
  byOwner: { owner: string; total: number; live: number }[];
  /** The `top` owners with the most live tasks (the ones nearest `maxPerPrincipal`). */
  busiestOwners: { owner: string; live: number }[];
  /** Live (non-terminal) tasks in the store: what `maxTasks` counts. */
  live: number;
  /** Instances holding leases on live tasks (the `top` with most), with the latest expiry of their leases. */
  leases: { instance: string; tasks: number; until: number }[];
}

/**
 * Window of `TaskStore.taskActivity`.
 * @publicApi
 */
export interface TaskActivityQuery {
  /** Start of the timeline and of the run-time window (epoch ms). */
  since: number;
  /** Width of one timeline bucket, in ms. */
  bucketMs: number;
}

/**
 * What happened to the unexpired tasks a store holds, from `since` to `now`.
 * @publicApi
 */
export interface TaskActivity {
  /**
   * Tasks created, and tasks that ended (terminal, by `updatedAt`), per bucket: bucket `i` covers
   * `[start + i·bucketMs, start + (i+1)·bucketMs)`, up to the bucket holding `now`.
   */
  timeline: { start: number; bucketMs: number; created: number[]; ended: number[] };
  /** Run time (`updatedAt − createdAt`) of tasks that ended since `since`, per tool, nearest-rank percentiles in ms. */
  durations: { tool: string; count: number; p50: number; p95: number }[];
}
