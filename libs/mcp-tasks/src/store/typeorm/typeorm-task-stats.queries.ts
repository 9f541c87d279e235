import type { EntityManager } from 'typeorm';
import type { TaskStatus } from '../../protocol/wire.interface.js';
import type { TaskActivity, TaskActivityQuery, TaskCounts, TaskCountsQuery } from '../task-queries.interface.js';
import { bucketCount, emptyStatusCounts, p50Rank, p95Rank } from '../task-stats.math.js';

/**
 * `TypeOrmTaskStore`'s aggregates: read-only statements run side by side (on PostgreSQL each takes
 * its own pooled connection), each a single pass over the unexpired rows or an index range.
 * Everything but the run-time percentiles is one SQL for both databases. Counts and activity are
 * separate calls: the console refreshes the per-minute activity less often than the counts.
 */

const LIVE = `status IN ('working', 'input_required')`;
const UNEXPIRED = '(expires_at IS NULL OR expires_at > :now)';
const bucketOf = (column: string) => `CAST((${column} - :since) / :bucket AS INTEGER)`;

type Row = Record<string, string | number | null>;
const num = (v: string | number | null | undefined): number => Number(v ?? 0);

const COUNTS = `SELECT tool, status, COUNT(*) AS n FROM mcp_tasks WHERE ${UNEXPIRED} GROUP BY tool, status`;
const OWNERS = `SELECT owner_key, COUNT(*) AS total, SUM(CASE WHEN ${LIVE} THEN 1 ELSE 0 END) AS live FROM mcp_tasks
  WHERE ${UNEXPIRED} GROUP BY owner_key ORDER BY total DESC, owner_key ASC LIMIT :top`;
const BUSIEST = `SELECT owner_key, COUNT(*) AS live FROM mcp_tasks WHERE ${LIVE} AND ${UNEXPIRED}
  GROUP BY owner_key ORDER BY live DESC, owner_key ASC LIMIT :top`;
const ENDS = `NOT ${LIVE} AND updated_at >= :since`;
/**
 * Created and ended per bucket in one scan rather than two: a row counts under its pair (created bucket,
 * ended bucket), NULL where it is not in that series, and `taskActivity` sums the pairs per series. With
 * run times short next to a bucket, that is a few pairs per bucket (never over buckets²).
 */
const TIMELINE = `SELECT CASE WHEN created_at >= :since THEN ${bucketOf('created_at')} END AS c,
  CASE WHEN ${ENDS} THEN ${bucketOf('updated_at')} END AS e, COUNT(*) AS n FROM mcp_tasks
  WHERE (created_at >= :since OR ${ENDS}) AND ${UNEXPIRED} GROUP BY c, e`;
const LEASES = `SELECT lease_owner, COUNT(*) AS tasks, MAX(lease_expires_at) AS until FROM mcp_tasks
  WHERE ${LIVE} AND ${UNEXPIRED} AND lease_owner IS NOT NULL
  GROUP BY lease_owner ORDER BY tasks DESC, lease_owner ASC LIMIT :top`;
const RUNS = `FROM mcp_tasks WHERE ${ENDS} AND ${UNEXPIRED}`;
/**
 * Nearest rank, ⌈p·n⌉: PostgreSQL's percentile_disc is exactly that (0.5 and 0.95 are exact enough
 * in binary that ⌈p·n⌉ never rounds the wrong way). Run times are gathered per tool by hashing and
 * each tool's few thousand sorted apart: percentile_disc over the rows themselves first sorts all of
 * them by tool, which spills to disk at the default work_mem (100 000 tasks: over half the time).
 * The arrays cost 8 bytes a run in memory, ~1 MB per 100 000 tasks.
 */
const PERCENTILES_PG = `SELECT tool, n, p[1] AS p50, p[2] AS p95 FROM (
  SELECT tool, COUNT(*) AS n, array_agg(updated_at - created_at) AS ds ${RUNS} GROUP BY tool) per_tool,
  LATERAL (SELECT percentile_disc(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY d) AS p FROM unnest(ds) AS d) ranked`;
/** SQLite has no percentile_disc: row numbers per tool, keeping the rows at ⌈n/2⌉ and ⌈0.95·n⌉. */
const PERCENTILES_SQLITE = `SELECT tool, n, r, d FROM (
  SELECT tool, updated_at - created_at AS d, COUNT(*) OVER (PARTITION BY tool) AS n,
    ROW_NUMBER() OVER (PARTITION BY tool ORDER BY updated_at - created_at) AS r ${RUNS}
  ) runs WHERE r = (n + 1) / 2 OR r = (95 * n + 99) / 100`;

/** Runs `sql` with named parameters turned into the driver's placeholders. */
function runner(m: EntityManager, params: Record<string, number>): (sql: string) => Promise<Row[]> {
  const postgres = m.connection.options.type === 'postgres';
  return (sql) => {
    const values: number[] = [];
    const text = sql.replace(/:(\w+)/g, (_, name: string) => {
      values.push(params[name]);
      return postgres ? `$${values.length}` : '?';
    });
    return m.query(text, values);
  };
}

export async function taskCounts(m: EntityManager, q: TaskCountsQuery, now: number): Promise<TaskCounts> {
  const run = runner(m, { now, top: q.top });
  const [counts, owners, busiest, leases] = await Promise.all([run(COUNTS), run(OWNERS), run(BUSIEST), run(LEASES)]);
  const byStatus = emptyStatusCounts();
  const tools = new Map<string, TaskCounts['byTool'][number]>();
  for (const row of counts) {
    const [tool, status, count] = [String(row.tool), row.status as TaskStatus, num(row.n)];
    byStatus[status] += count;
    const entry = tools.get(tool) ?? { tool, total: 0, byStatus: {} };
    entry.total += count;
    entry.byStatus[status] = count;
    tools.set(tool, entry);
  }
  return {
    byStatus,
    byTool: [...tools.values()].sort((a, b) => b.total - a.total || (a.tool < b.tool ? -1 : 1)),
    byOwner: owners.map((r) => ({ owner: String(r.owner_key), total: num(r.total), live: num(r.live) })),
    busiestOwners: busiest.map((r) => ({ owner: String(r.owner_key), live: num(r.live) })),
    live: byStatus.working + byStatus.input_required,
    leases: leases.map((r) => ({ instance: String(r.lease_owner), tasks: num(r.tasks), until: num(r.until) })),
  };
}

export async function taskActivity(m: EntityManager, q: TaskActivityQuery, now: number): Promise<TaskActivity> {
  const postgres = m.connection.options.type === 'postgres';
  const run = runner(m, { now, since: q.since, bucket: q.bucketMs });
  const [pairs, runs] = await Promise.all([run(TIMELINE), run(postgres ? PERCENTILES_PG : PERCENTILES_SQLITE)]);
  const n = bucketCount(q.since, q.bucketMs, now);
  const [created, ended] = [0, 1].map(() => Array.from({ length: n }, () => 0));
  const add = (counts: number[], b: string | number | null, count: number) => {
    if (b !== null && num(b) < n) counts[num(b)] += count;
  };
  for (const row of pairs) {
    add(created, row.c, num(row.n));
    add(ended, row.e, num(row.n));
  }
  return {
    timeline: { start: q.since, bucketMs: q.bucketMs, created, ended },
    durations: (postgres ? fromPercentiles(runs) : fromRanks(runs)).sort((a, b) => (a.tool < b.tool ? -1 : 1)),
  };
}

const fromPercentiles = (rows: Row[]): TaskActivity['durations'] =>
  rows.map((r) => ({ tool: String(r.tool), count: num(r.n), p50: num(r.p50), p95: num(r.p95) }));

function fromRanks(rows: Row[]): TaskActivity['durations'] {
  const durations = new Map<string, TaskActivity['durations'][number]>();
  for (const row of rows) {
    const [tool, count, r, d] = [String(row.tool), num(row.n), num(row.r), num(row.d)];
    const entry = durations.get(tool) ?? { tool, count, p50: 0, p95: 0 };
    if (r === p50Rank(count)) entry.p50 = d;
    if (r === p95Rank(count)) entry.p95 = d;
    durations.set(tool, entry);
  }
  return [...durations.values()];
}
