import type { EntityManager } from 'typeorm';
import type { TaskStatus } from '../../protocol/wire.types.js';
import type { TaskListPage, TaskListQuery, TaskStats, TaskStatsQuery, TaskSummary } from '../task-queries.js';
import { bucketCount, emptyStatusCounts, p50Rank, p95Rank } from '../task-stats.math.js';
import { McpTaskEntity } from './mcp-task.entity.js';

/**
 * `TypeOrmTaskStore`'s listing and aggregates: read-only, one statement each, run by the store's
 * dialect like its other reads. The same SQL serves SQLite and PostgreSQL (window functions, integer
 * division); `IDX_mcp_tasks_created` and `IDX_mcp_tasks_tool_created` serve the newest-first pages.
 */

const LISTED = ['id', 'ownerKey', 'tool', 'status', 'statusMessage', 'createdAt', 'updatedAt', 'expiresAt'] as const;
const LIVE = `status IN ('working', 'input_required')`;
const UNEXPIRED = '(expires_at IS NULL OR expires_at > :now)';

export async function listTasks(m: EntityManager, q: TaskListQuery, now: number): Promise<TaskListPage> {
  const filtered = () => {
    const qb = m.createQueryBuilder(McpTaskEntity, 't').where('(t.expiresAt IS NULL OR t.expiresAt > :now)', { now });
    if (q.status) qb.andWhere('t.status IN (:...status)', { status: q.status.length ? q.status : [''] });
    if (q.tool !== undefined) qb.andWhere('t.tool = :tool', { tool: q.tool });
    if (q.owner !== undefined) qb.andWhere('t.ownerKey = :owner', { owner: q.owner });
    if (q.subject !== undefined) {
      // The owner key is a JSON array whose first element is the subject. SUBSTR and the length in
      // code points behave alike on both databases (LIKE does not: SQLite's ignores ASCII case).
      const prefix = `[${JSON.stringify(q.subject)},`;
      qb.andWhere('SUBSTR(t.ownerKey, 1, :chars) = :prefix', { prefix, chars: Array.from(prefix).length });
    }
    if (q.createdFrom !== undefined) qb.andWhere('t.createdAt >= :from', { from: q.createdFrom });
    if (q.createdBefore !== undefined) qb.andWhere('t.createdAt < :before', { before: q.createdBefore });
    return qb;
  };
  const counted = await filtered().select('COUNT(*)', 'n').getRawOne<{ n: string | number }>();
  const page = filtered()
    .select([...LISTED.map((c) => `t.${c}`), 't.leaseOwner', 't.leaseExpiresAt', 't.inputRequests'])
    .orderBy('t.createdAt', 'DESC')
    .addOrderBy('t.id', 'DESC')
    .limit(q.limit + 1);
  if (q.after)
    page.andWhere('(t.createdAt < :ac OR (t.createdAt = :ac AND t.id < :aid))', {
      ac: q.after.createdAt,
      aid: q.after.id,
    });
  const rows = await page.getMany();
  const tasks = rows.slice(0, q.limit).map(toSummary);
  const last = tasks.at(-1);
  const next = rows.length > q.limit && last ? { next: { createdAt: last.createdAt, id: last.id } } : {};
  return { tasks, total: Number(counted?.n ?? 0), ...next };
}

function toSummary(row: McpTaskEntity): TaskSummary {
  const summary: TaskSummary = {
    id: row.id,
    owner: row.ownerKey,
    tool: row.tool,
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    expiresAt: row.expiresAt,
    leaseOwner: row.leaseOwner,
    leaseExpiresAt: row.leaseExpiresAt,
    inputKeys: Object.keys(row.inputRequests ?? {}),
  };
  if (row.statusMessage !== null) summary.statusMessage = row.statusMessage;
  return summary;
}

type Row = Record<string, string | number | null>;
const num = (v: string | number | null | undefined): number => Number(v ?? 0);

export async function taskStats(m: EntityManager, q: TaskStatsQuery, now: number): Promise<TaskStats> {
  const postgres = m.connection.options.type === 'postgres';
  /** Named parameters to the driver's placeholders. */
  const run = (sql: string, params: Record<string, number>): Promise<Row[]> => {
    const values: number[] = [];
    const text = sql.replace(/:(\w+)/g, (_, name: string) => {
      values.push(params[name]);
      return postgres ? `$${values.length}` : '?';
    });
    return m.query(text, values);
  };
  const p = { now, since: q.since, bucket: q.bucketMs, top: q.top };
  const n = bucketCount(q.since, q.bucketMs, now);
  const bucketOf = (column: string) => `CAST((${column} - :since) / :bucket AS INTEGER)`;
  const [toolRows, ownerRows, busyRows, createdRows, endedRows, durationRows, leaseRows] = await Promise.all([
    run(`SELECT tool, status, COUNT(*) AS n FROM mcp_tasks WHERE ${UNEXPIRED} GROUP BY tool, status`, p),
    run(
      `SELECT owner_key, COUNT(*) AS total, SUM(CASE WHEN ${LIVE} THEN 1 ELSE 0 END) AS live FROM mcp_tasks
       WHERE ${UNEXPIRED} GROUP BY owner_key ORDER BY total DESC, owner_key ASC LIMIT :top`,
      p,
    ),
    run(
      `SELECT owner_key, COUNT(*) AS live FROM mcp_tasks WHERE ${LIVE} AND ${UNEXPIRED}
       GROUP BY owner_key ORDER BY live DESC, owner_key ASC LIMIT :top`,
      p,
    ),
    run(
      `SELECT ${bucketOf('created_at')} AS b, COUNT(*) AS n FROM mcp_tasks
       WHERE created_at >= :since AND ${UNEXPIRED} GROUP BY b`,
      p,
    ),
    run(
      `SELECT ${bucketOf('updated_at')} AS b, COUNT(*) AS n FROM mcp_tasks
       WHERE NOT ${LIVE} AND updated_at >= :since AND ${UNEXPIRED} GROUP BY b`,
      p,
    ),
    // Nearest rank: the row at ⌈p·n⌉ of each tool's sorted run times (integer arithmetic, as in memory).
    run(
      `SELECT tool, n, r, d FROM (
         SELECT tool, updated_at - created_at AS d,
           ROW_NUMBER() OVER (PARTITION BY tool ORDER BY updated_at - created_at) AS r,
           COUNT(*) OVER (PARTITION BY tool) AS n
         FROM mcp_tasks WHERE NOT ${LIVE} AND updated_at >= :since AND ${UNEXPIRED}
       ) runs WHERE r = (n + 1) / 2 OR r = (95 * n + 99) / 100`,
      p,
    ),
    run(
      `SELECT lease_owner, COUNT(*) AS tasks, MAX(lease_expires_at) AS until FROM mcp_tasks
       WHERE ${LIVE} AND ${UNEXPIRED} AND lease_owner IS NOT NULL
       GROUP BY lease_owner ORDER BY tasks DESC, lease_owner ASC LIMIT :top`,
      p,
    ),
  ]);
  const byStatus = emptyStatusCounts();
  const tools = new Map<string, TaskStats['byTool'][number]>();
  for (const row of toolRows) {
    const [tool, status, count] = [String(row.tool), row.status as TaskStatus, num(row.n)];
    byStatus[status] += count;
    const entry = tools.get(tool) ?? { tool, total: 0, byStatus: {} };
    entry.total += count;
    entry.byStatus[status] = count;
    tools.set(tool, entry);
  }
  const series = (rows: Row[]) => {
    const counts = Array.from({ length: n }, () => 0);
    for (const row of rows) if (num(row.b) < n) counts[num(row.b)] = num(row.n);
    return counts;
  };
  const durations = new Map<string, TaskStats['durations'][number]>();
  for (const row of durationRows) {
    const [tool, count, r, d] = [String(row.tool), num(row.n), num(row.r), num(row.d)];
    const entry = durations.get(tool) ?? { tool, count, p50: 0, p95: 0 };
    if (r === p50Rank(count)) entry.p50 = d;
    if (r === p95Rank(count)) entry.p95 = d;
    durations.set(tool, entry);
  }
  return {
    byStatus,
    byTool: [...tools.values()].sort((a, b) => b.total - a.total || (a.tool < b.tool ? -1 : 1)),
    byOwner: ownerRows.map((r) => ({ owner: String(r.owner_key), total: num(r.total), live: num(r.live) })),
    busiestOwners: busyRows.map((r) => ({ owner: String(r.owner_key), live: num(r.live) })),
    live: byStatus.working + byStatus.input_required,
    timeline: { start: q.since, bucketMs: q.bucketMs, created: series(createdRows), ended: series(endedRows) },
    durations: [...durations.values()].sort((a, b) => (a.tool < b.tool ? -1 : 1)),
    leases: leaseRows.map((r) => ({ instance: String(r.lease_owner), tasks: num(r.tasks), until: num(r.until) })),
  };
}
