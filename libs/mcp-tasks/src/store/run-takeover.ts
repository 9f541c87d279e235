import { applyTaskChange } from './apply-task-change.js';
import type { ResumableTasks } from './capabilities/resumable-tasks.interface.js';
import type { TaskRecord } from './task.record.js';

type Notes = Parameters<ResumableTasks['adoptLapsedRuns']>[4];

/** The fields a takeover writes when another attempt is left. */
export type NextAttempt = Pick<TaskRecord, 'leaseOwner' | 'leaseExpiresAt' | 'attempt' | 'statusMessage' | 'updatedAt'>;

/**
 * What taking over a lapsed run of `task` means, as every store's `adoptLapsedRuns` writes it: the task ended
 * `failed` when its last attempt had run (`null` when it can no longer change), else the next attempt's lease,
 * number and status message — its status, questions, answers and checkpoint stay, so that attempt carries on.
 */
export function runTakeover(
  task: TaskRecord,
  owner: string,
  until: number,
  notes: Notes,
  now: number,
): { exhausted: TaskRecord | null } | { next: NextAttempt } {
  const attempt = task.attempt ?? 1;
  const maxAttempts = task.resume!.maxAttempts;
  if (attempt >= maxAttempts)
    return {
      exhausted: applyTaskChange(task, { kind: 'finish', status: 'failed', error: notes.exhausted(attempt) }, now),
    };
  const statusMessage = notes.statusMessage(attempt + 1, maxAttempts);
  return { next: { leaseOwner: owner, leaseExpiresAt: until, attempt: attempt + 1, statusMessage, updatedAt: now } };
}
