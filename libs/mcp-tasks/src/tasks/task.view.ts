import type { DetailedWireTask, WireTask } from '../protocol/wire.types.js';
import type { TaskRecord } from '../store/task.record.js';

/** The flat task fields of `CreateTaskResult` (and the head of `tasks/get`). */
export function wireTask(task: TaskRecord, pollIntervalMs: number): WireTask {
  const out: WireTask = {
    taskId: task.id,
    status: task.status,
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: task.expiresAt === null ? null : task.expiresAt - task.createdAt,
  };
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage;
  if (task.status === 'working' || task.status === 'input_required') out.pollIntervalMs = pollIntervalMs;
  return out;
}

/** Everything `tasks/get` (and `notifications/tasks`) shows for a task in its current status. */
export function detailedWireTask(task: TaskRecord, pollIntervalMs: number): DetailedWireTask {
  const out: DetailedWireTask = wireTask(task, pollIntervalMs);
  if (task.status === 'input_required') out.inputRequests = task.inputRequests;
  if (task.status === 'completed' && task.result) out.result = { ...task.result, resultType: 'complete' };
  if (task.status === 'failed' && task.error) out.error = task.error;
  return out;
}
