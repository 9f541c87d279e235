import type { AbortReason, TaskRunEnd } from '../context/task-run.handle.js';
import type { RunChange } from '../context/task-tool.context.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { isTerminal } from '../protocol/wire.interface.js';
import type { TaskChange, TaskRecord } from '../store/task.record.js';

/** How a task whose runner died ends (the lease reaper), and one this instance finds reclaimed while it ran. */
export const INTERRUPTED = {
  code: RpcCode.InternalError,
  message: 'The task was interrupted: the instance running it stopped',
};
const SHUTDOWN = { code: RpcCode.InternalError, message: 'The task was interrupted: the server shut down' };
const EXPIRED = { code: RpcCode.InternalError, message: 'The task expired before it finished (its ttl ran out)' };

/**
 * The final change for a run stopped before it produced an outcome, so the task never waits for the lease reaper:
 * a write that does not apply (the task already ended, or expired) changes nothing.
 */
export function stoppedChange(reason: AbortReason): RunChange {
  switch (reason) {
    case 'cancelled':
      return { kind: 'finish', status: 'cancelled' };
    case 'shutdown':
      return { kind: 'finish', status: 'failed', error: SHUTDOWN };
    case 'expired':
      return { kind: 'finish', status: 'failed', error: EXPIRED };
    case 'lease-lost':
      return { kind: 'finish', status: 'failed', error: INTERRUPTED };
  }
}

/** How a run ended, from the task the store holds after its final write (`undefined`: gone, its ttl ran out). */
export function runEndOf(task: Pick<TaskRecord, 'status' | 'result' | 'error'> | undefined): TaskRunEnd {
  if (!task) return { status: 'expired', isError: false };
  const isError = task.status === 'completed' && task.result?.isError === true;
  if (task.status === 'completed' || task.status === 'cancelled') return { status: task.status, isError };
  // Still live only when the store could not be read back: what the run meant to write is all that is known.
  return { status: 'failed', isError: false, ...(task.error ? { error: task.error } : {}) };
}

/** The task as `change` (a `finish`) would leave it: how a run ended when the store cannot be read back. */
export const intended = (change: TaskChange): Pick<TaskRecord, 'status' | 'result' | 'error'> | undefined =>
  change.kind === 'finish' ? { status: change.status, result: change.result, error: change.error } : undefined;

/**
 * How a run handed over ended, from the task as the store holds it (`null`: unreadable): `null` while it goes on
 * elsewhere or once a later attempt has it — that attempt reports its end; ended at this run's `attempt` (or gone),
 * as for any run.
 */
export const handedOverEnd = (task: TaskRecord | null | undefined, attempt: number): TaskRunEnd | null =>
  task === null || (task !== undefined && (!isTerminal(task.status) || (task.attempt ?? 1) !== attempt))
    ? null
    : runEndOf(task);
