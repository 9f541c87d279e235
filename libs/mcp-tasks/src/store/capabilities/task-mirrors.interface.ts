import type { TaskRecord } from '../task.record.js';
import type { TaskStore } from '../task-store.interface.js';

/**
 * Capability: tasks that mirror an upstream server's task (the record's `upstream` field) are handed to another
 * instance when their holder stops, instead of being failed. The `upstreams` option needs it: with upstreams, a
 * store without it fails startup, naming both. Contract: the `mirrors` part of `taskStoreContract`.
 * @publicApi
 */
export interface TaskMirrors {
  /**
   * Gives `owner` the lease (until `until`) on up to `limit` live, unexpired tasks that mirror an upstream task
   * (`upstream` set) and whose lease lapsed before `now`, and returns them as updated. `reclaimExpiredLeases`
   * leaves such tasks alone — their work runs upstream, so another instance carries on following it. Each task
   * is adopted by one caller only, however many call this at once. With `server`, only tasks whose owner key names
   * it (the registration's `server.name`): several servers sharing one table each adopt their own mirrors only.
   */
  adoptLapsedMirrors(now: number, limit: number, owner: string, until: number, server?: string): Promise<TaskRecord[]>;
}

/** Whether `store` implements `TaskMirrors`. */
export const hasTaskMirrors = (store: TaskStore): store is TaskStore & TaskMirrors =>
  typeof (store as Partial<TaskMirrors>).adoptLapsedMirrors === 'function';
