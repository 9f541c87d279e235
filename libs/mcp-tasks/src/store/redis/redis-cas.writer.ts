import type { TaskRecord } from '../task.record.js';
import { diffTask } from './redis-task.codec.js';
import type { RedisScripts } from './redis-scripts.js';

/** A change computed in Node from a task read at `version`. */
export interface CasWrite {
  version: string;
  task: TaskRecord;
  next: TaskRecord;
}

/**
 * Sends changes as one compare-and-set script: each lands only if its task is still at the version it was read at
 * (nobody wrote it meanwhile). Resolves to the ids that landed; the others lost a race and must be read again.
 */
export async function casWrite(scripts: RedisScripts, writes: CasWrite[]): Promise<Set<string>> {
  if (writes.length === 0) return new Set();
  const args: Array<string | number> = [writes.length];
  for (const w of writes) {
    const { set, del } = diffTask(w.task, w.next);
    args.push(w.task.id, w.version, set.length / 2, ...set, del.length, ...del);
  }
  return new Set(await scripts.run<string[]>('cas', ...args));
}
