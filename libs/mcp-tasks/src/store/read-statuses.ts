import type { TaskStatus } from '../protocol/wire.interface.js';
import type { TaskStore } from './task-store.interface.js';

/** `get` calls at once for a store without `statuses`. */
const PARALLEL_GETS = 32;

/** The status of each of `ids` that exists and has not expired: one batch read, or `get` for each. */
export async function readStatuses(store: TaskStore, ids: string[], now: number): Promise<Map<string, TaskStatus>> {
  if (store.statuses) return store.statuses(ids, now);
  const out = new Map<string, TaskStatus>();
  for (let i = 0; i < ids.length; i += PARALLEL_GETS) {
    const tasks = await Promise.all(ids.slice(i, i + PARALLEL_GETS).map((id) => store.get(id, now)));
    for (const task of tasks) if (task) out.set(task.id, task.status);
  }
  return out;
}
