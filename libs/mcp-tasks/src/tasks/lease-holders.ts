import { ownerKeyOnServer } from '../owner/owner-key.js';
import type { TaskQueries } from '../store/capabilities/task-queries.interface.js';

/**
 * Live tasks read per look, newest first: another instance running any task is among them unless this one runs more,
 * newer ones (a later look may then see it).
 */
const PAGE = 100;

/**
 * An instance other than `self` holding an unexpired lease on a live task of `server` in `store`, or `undefined`:
 * one `listTasks` of the newest live tasks (another registration's tasks in a shared store are not its business).
 */
export async function otherLeaseHolder(
  store: TaskQueries,
  server: string,
  self: string,
  now: number,
): Promise<string | undefined> {
  const { tasks } = await store.listTasks({ status: ['working', 'input_required'], limit: PAGE }, now);
  const other = tasks.find(
    (t) =>
      !!t.leaseOwner && t.leaseOwner !== self && (t.leaseExpiresAt ?? 0) > now && ownerKeyOnServer(t.owner, server),
  );
  return other?.leaseOwner ?? undefined;
}
