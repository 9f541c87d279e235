import type { TaskSummary } from './task-queries.interface.js';
import type { TaskRecord } from './task.record.js';

/** A task as the listings show it (`TaskSummary`), whichever store read it. */
export function toSummary(t: TaskRecord): TaskSummary {
  const summary: TaskSummary = {
    id: t.id,
    owner: t.owner,
    tool: t.tool,
    status: t.status,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt,
    expiresAt: t.expiresAt,
    leaseOwner: t.leaseOwner ?? null,
    leaseExpiresAt: t.leaseExpiresAt ?? null,
    inputKeys: Object.keys(t.inputRequests),
  };
  if (t.statusMessage !== undefined) summary.statusMessage = t.statusMessage;
  return summary;
}
