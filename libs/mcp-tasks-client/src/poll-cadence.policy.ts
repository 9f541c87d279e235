/**
 * Slows ext-tasks' polling for tasks that are being listened to.
 *
 * ext-tasks polls a task at the `pollIntervalMs` its last snapshot carried and has no knob for
 * "a notification stream covers this task". So, while `awaitTask({ listen: true })` runs, task
 * snapshots addressed to ext-tasks (`tasks/get` results and `notifications/tasks`) carry the
 * server's hint multiplied by the factor; a notification still wakes the driver at once, and the
 * slowed poll only catches what a dropped stream would miss. `restore` undoes it for values handed
 * to the caller.
 */
export class PollCadence {
  /** taskId → factor, with a count so overlapping waits on one task (e.g. retries) nest. */
  private readonly slowed = new Map<string, { factor: number; holders: number }>();

  slow(taskId: string, factor: number): void {
    const entry = this.slowed.get(taskId);
    this.slowed.set(taskId, { factor, holders: (entry?.holders ?? 0) + 1 });
  }

  release(taskId: string): void {
    const entry = this.slowed.get(taskId);
    if (!entry || --entry.holders <= 0) this.slowed.delete(taskId);
  }

  /** Scales `task.pollIntervalMs` in place when `task` is a slowed task's snapshot. */
  apply(task: unknown): void {
    const t = task as { taskId?: unknown; pollIntervalMs?: unknown } | null;
    const entry = typeof t?.taskId === 'string' ? this.slowed.get(t.taskId) : undefined;
    if (entry && typeof t?.pollIntervalMs === 'number') t.pollIntervalMs *= entry.factor;
  }

  /** The server's own hint for a snapshot `apply` may have scaled. */
  restore<T extends { taskId: string; pollIntervalMs?: number }>(task: T): T {
    const entry = this.slowed.get(task.taskId);
    if (!entry || task.pollIntervalMs === undefined) return task;
    return { ...task, pollIntervalMs: task.pollIntervalMs / entry.factor };
  }
}
