import { ownerKeyHasSubject, sameOwner } from '../../owner/owner-key.js';
import { isTerminal } from '../../protocol/wire.interface.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import { toSummary } from '../task-summary.mapper.js';
import type { TaskRecord } from '../task.record.js';
import { bucketCount, byCountThenName, emptyStatusCounts, p50Rank, p95Rank } from '../task-stats.math.js';

/** `MemoryTaskStore`'s listing and aggregates: a scan of its Map (the console's, not the hot path's). */

const unexpired = (t: TaskRecord, now: number): boolean => t.expiresAt === null || t.expiresAt > now;

/** Newest first; ties by id, descending. */
const newestFirst = (a: TaskRecord, b: TaskRecord): number =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function matches(t: TaskRecord, q: TaskListQuery): boolean {
  if (q.status && !q.status.includes(t.status)) return false;
  if (q.tool !== undefined && t.tool !== q.tool) return false;
  if (q.owner !== undefined && !sameOwner(t.owner, q.owner)) return false;
  if (q.subject !== undefined && !ownerKeyHasSubject(t.owner, q.subject)) return false;
  if (q.createdFrom !== undefined && t.createdAt < q.createdFrom) return false;
  if (q.createdBefore !== undefined && t.createdAt >= q.createdBefore) return false;
  return true;
}

const isAfter = (t: TaskRecord, q: { after?: TaskListQuery['after'] }): boolean =>
  !q.after || t.createdAt < q.after.createdAt || (t.createdAt === q.after.createdAt && t.id < q.after.id);

/** A session-bound task is listed only for `session` undefined (any) or that very session. */
const inSessions = (t: TaskRecord, session: string | null | undefined): boolean =>
  t.session === undefined || session === undefined || t.session === session;

export function listByOwnerIn(tasks: Iterable<TaskRecord>, q: OwnerTasksQuery, now: number): TaskRecord[] {
  return [...tasks]
    .filter((t) => sameOwner(t.owner, q.owner) && unexpired(t, now) && inSessions(t, q.session) && isAfter(t, q))
    .sort(newestFirst)
    .slice(0, q.limit);
}

export function listTasksIn(tasks: Iterable<TaskRecord>, q: TaskListQuery, now: number): TaskListPage {
  const all = [...tasks].filter((t) => unexpired(t, now) && matches(t, q));
  const page = all
    .filter((t) => isAfter(t, q))
    .sort(newestFirst)
    .slice(0, q.limit + 1);
  const more = page.length > q.limit;
  const tasks_ = page.slice(0, q.limit).map(toSummary);
  const last = tasks_.at(-1);
  return {
    tasks: tasks_,
    total: all.length,
    ...(more && last ? { next: { createdAt: last.createdAt, id: last.id } } : {}),
  };
}

/** Most first, then by name. */
const rank = <T>(xs: Iterable<T>, count: (x: T) => number, name: (x: T) => string): T[] =>
  [...xs].sort(byCountThenName(count, name));

export function countsOf(tasks: Iterable<TaskRecord>, q: TaskCountsQuery, now: number): TaskCounts {
  const byStatus = emptyStatusCounts();
  const tools = new Map<string, TaskCounts['byTool'][number]>();
  const owners = new Map<string, { owner: string; total: number; live: number }>();
  const leases = new Map<string, { instance: string; tasks: number; until: number }>();
  for (const t of tasks) {
    if (!unexpired(t, now)) continue;
    const live = !isTerminal(t.status);
    byStatus[t.status]++;
    const tool = tools.get(t.tool) ?? { tool: t.tool, total: 0, byStatus: {} };
    tool.total++;
    tool.byStatus[t.status] = (tool.byStatus[t.status] ?? 0) + 1;
    tools.set(t.tool, tool);
    const owner = owners.get(t.owner) ?? { owner: t.owner, total: 0, live: 0 };
    owner.total++;
    if (live) owner.live++;
    owners.set(t.owner, owner);
    if (live && t.leaseOwner) {
      const lease = leases.get(t.leaseOwner) ?? { instance: t.leaseOwner, tasks: 0, until: 0 };
      lease.tasks++;
      lease.until = Math.max(lease.until, t.leaseExpiresAt ?? 0);
      leases.set(t.leaseOwner, lease);
    }
  }
  const byOwner = rank(
    owners.values(),
    (o) => o.total,
    (o) => o.owner,
  );
  const busiest = rank(
    byOwner.filter((o) => o.live > 0),
    (o) => o.live,
    (o) => o.owner,
  );
  return {
    byStatus,
    byTool: rank(
      tools.values(),
      (t) => t.total,
      (t) => t.tool,
    ),
    byOwner: byOwner.slice(0, q.top),
    busiestOwners: busiest.slice(0, q.top).map(({ owner, live }) => ({ owner, live })),
    live: byStatus.working + byStatus.input_required,
    leases: rank(
      leases.values(),
      (l) => l.tasks,
      (l) => l.instance,
    ).slice(0, q.top),
  };
}

export function activityOf(tasks: Iterable<TaskRecord>, q: TaskActivityQuery, now: number): TaskActivity {
  const runs = new Map<string, number[]>();
  const n = bucketCount(q.since, q.bucketMs, now);
  const created = Array.from({ length: n }, () => 0);
  const ended = Array.from({ length: n }, () => 0);
  const bucket = (t: number) => (t >= q.since ? Math.floor((t - q.since) / q.bucketMs) : -1);
  for (const t of tasks) {
    if (!unexpired(t, now)) continue;
    const c = bucket(t.createdAt);
    if (c >= 0 && c < n) created[c]++;
    if (!isTerminal(t.status)) continue;
    const e = bucket(t.updatedAt);
    if (e >= 0 && e < n) ended[e]++;
    if (t.updatedAt < q.since) continue;
    const durations = runs.get(t.tool) ?? [];
    durations.push(t.updatedAt - t.createdAt);
    runs.set(t.tool, durations);
  }
  return {
    timeline: { start: q.since, bucketMs: q.bucketMs, created, ended },
    durations: [...runs.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([tool, ds]) => {
        ds.sort((a, b) => a - b);
        return { tool, count: ds.length, p50: ds[p50Rank(ds.length) - 1], p95: ds[p95Rank(ds.length) - 1] };
      }),
  };
}
