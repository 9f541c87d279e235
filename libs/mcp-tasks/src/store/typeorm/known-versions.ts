import type { TaskRecord } from '../task.record.js';

/** Tasks remembered at most (two generations of half as many). */
const MAX = 10_000;

export interface Known {
  task: TaskRecord;
  version: unknown;
}

/**
 * The last row version of each live task this store wrote, with the record it holds: the expected value of
 * the task's next compare-and-set, so a runner's change (progress, finish) needs no read first. Never
 * answered to anyone: a stale entry only fails its compare-and-set, and the store reads the row instead.
 */
export class KnownVersions {
  private recent = new Map<string, Known>();
  private older = new Map<string, Known>();

  /** The entry for `id`, forgotten: a caller that succeeds remembers the new version. */
  take(id: string): Known | undefined {
    const known = this.recent.get(id) ?? this.older.get(id);
    this.recent.delete(id);
    this.older.delete(id);
    return known;
  }

  remember(task: TaskRecord, version: unknown): void {
    if (version === undefined) return;
    // The newer generation full: it becomes the older one, and the older one is dropped whole.
    if (this.recent.size >= MAX / 2) [this.older, this.recent] = [this.recent, new Map()];
    this.recent.set(task.id, { task, version });
  }
}
