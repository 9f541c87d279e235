import { RpcCode } from '../mcp-tasks.constants.js';
import type { TaskError, TaskStatus } from '../protocol/wire.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { isoTime } from '../tasks/task.mapper.js';
import { forLegacyWire } from '../tools/legacy-structured-content.js';
import { RELATED_TASK_META } from './legacy.constants.js';

/** A task as 2025-11-25 shows it (`Task`): `ttl` always present (`null`: unlimited). */
export interface LegacyTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number | null;
  pollInterval?: number;
}

const MAX_MESSAGE = 500;

/**
 * The 2025-11-25 view of any task, whichever wire created it. Stores keep one meaning for every task (a tool's
 * `isError` result is `completed`, as 2026-07-28 has it); that revision calls such a task `failed`, so this view
 * does, with the tool's text as its diagnostic `statusMessage` (as for a JSON-RPC error, its message).
 */
export function toLegacyTask(task: TaskRecord, pollInterval: number): LegacyTask {
  const toolError = task.status === 'completed' && task.result?.isError === true;
  const status: TaskStatus = toolError ? 'failed' : task.status;
  const out: LegacyTask = {
    taskId: task.id,
    status,
    createdAt: isoTime(task.createdAt),
    lastUpdatedAt: isoTime(task.updatedAt),
    ttl: task.expiresAt === null ? null : task.expiresAt - task.createdAt,
  };
  const message = toolError ? toolErrorText(task) : task.status === 'failed' ? task.error?.message : undefined;
  const statusMessage = message ?? task.statusMessage;
  if (statusMessage !== undefined) out.statusMessage = statusMessage.slice(0, MAX_MESSAGE);
  if (status === 'working' || status === 'input_required') out.pollInterval = pollInterval;
  return out;
}

/** What `tasks/result` answers for a terminal task: the tool's result (tied to the task), or a JSON-RPC error. */
export function legacyOutcome(task: TaskRecord): { result: Record<string, unknown> } | { error: TaskError } {
  if (task.result && (task.status === 'completed' || task.status === 'failed')) {
    const meta = { ...task.result._meta, [RELATED_TASK_META]: { taskId: task.id } };
    return { result: forLegacyWire({ ...task.result, _meta: meta }) };
  }
  if (task.status === 'failed' && task.error) return { error: task.error };
  const message = task.status === 'cancelled' ? `Task ${task.id} was cancelled` : `Task ${task.id} has no result`;
  return { error: { code: RpcCode.InternalError, message, data: { taskId: task.id, status: task.status } } };
}

function toolErrorText(task: TaskRecord): string {
  const text = task.result?.content.find((c) => c.type === 'text')?.text;
  return typeof text === 'string' && text.length > 0 ? text : 'The tool reported an error';
}
