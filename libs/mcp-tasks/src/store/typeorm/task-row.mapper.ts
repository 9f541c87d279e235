import { MODERN_PROTOCOL_VERSION } from '../../mcp-tasks.constants.js';
import type { TaskRecord } from '../task.record.js';
import type { McpTaskEntity } from './mcp-task.entity.js';

/** Row to record: SQL `NULL` in an optional field becomes an absent property, as in `MemoryTaskStore`. */
export function toRecord(row: McpTaskEntity): TaskRecord {
  const task: TaskRecord = {
    id: row.id,
    owner: row.ownerKey,
    tool: row.tool,
    status: row.status,
    inputRequests: row.inputRequests,
    inputResponses: row.inputResponses,
    requiredScopes: row.requiredScopes,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    expiresAt: row.expiresAt,
  };
  if (row.statusMessage !== null) task.statusMessage = row.statusMessage;
  if (row.result !== null) task.result = row.result;
  if (row.error !== null) task.error = row.error;
  if (row.leaseOwner !== null) task.leaseOwner = row.leaseOwner;
  if (row.leaseExpiresAt !== null) task.leaseExpiresAt = row.leaseExpiresAt;
  if (row.generation !== null) task.generation = row.generation;
  if (row.session !== null) task.session = row.session;
  if (row.inputChannel !== null) task.inputChannel = row.inputChannel;
  // Rows written before the column existed read it as undefined.
  if (row.upstream != null) task.upstream = row.upstream;
  // Absent means the first attempt (as rows from before the column read): written out only past it.
  if (row.attempt != null && row.attempt !== 1) task.attempt = row.attempt;
  if (row.checkpoint != null) task.checkpoint = row.checkpoint;
  if (row.resume != null) task.resume = row.resume;
  return task;
}

/**
 * The columns `applyTaskChange` may move. Updates write only these, so they never clobber a lease (nor the attempt,
 * which only a takeover moves). The checkpoint goes with every write: one column set for every change, so the
 * compare-and-sets of different tasks share a statement.
 */
export function changedColumns(task: TaskRecord): Partial<McpTaskEntity> {
  return {
    status: task.status,
    statusMessage: task.statusMessage ?? null,
    inputRequests: task.inputRequests,
    inputResponses: task.inputResponses,
    result: task.result ?? null,
    error: task.error ?? null,
    updatedAt: task.updatedAt,
    inputChannel: task.inputChannel ?? null,
    checkpoint: task.checkpoint ?? null,
  };
}

/**
 * Record to a full row, for inserts. Not `{ ...changedColumns(task), id, … }`: in Node 20 a spread followed by more
 * keys built every row through V8's runtime (~10 µs a row); `Object.assign` onto the fresh object costs ~0.3 µs.
 */
export function toRow(task: TaskRecord): McpTaskEntity {
  return Object.assign(changedColumns(task) as Required<ReturnType<typeof changedColumns>>, {
    id: task.id,
    ownerKey: task.owner,
    tool: task.tool,
    requiredScopes: task.requiredScopes,
    createdAt: task.createdAt,
    expiresAt: task.expiresAt,
    leaseOwner: task.leaseOwner ?? null,
    leaseExpiresAt: task.leaseExpiresAt ?? null,
    // The native wire is stored as NULL, like rows written before the column existed.
    generation: task.generation === MODERN_PROTOCOL_VERSION ? null : (task.generation ?? null),
    session: task.session ?? null,
    upstream: task.upstream ?? null,
    attempt: task.attempt ?? 1,
    resume: task.resume ?? null,
  });
}
