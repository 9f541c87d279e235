import type { TaskChange, TaskRecord, UpdateOutcome } from '../store/task.record.js';

/** How a mirror reads and changes its local task (through the runner, so listeners hear of every change). */
export interface MirrorTarget {
  read(): Promise<TaskRecord | undefined>;
  apply(change: TaskChange): Promise<UpdateOutcome | undefined>;
  /** Cancels the upstream task; says whether the upstream acknowledged. */
  cancelUpstream(): Promise<boolean>;
  /** Whether this instance still holds the task's lease (another may have taken the mirror over). */
  holds(task: TaskRecord): boolean;
}
