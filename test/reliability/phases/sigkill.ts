import { setTimeout as sleep } from 'node:timers/promises';
import { LoadClient, type LoadShared } from '../load/client.js';
import { query, type RunContext } from '../support/context.js';
import { startCluster } from '../support/cluster.js';
import { rpc, TASKS } from '../support/http.js';
import { sumOf } from '../support/tally.js';
import { checkInstances, reportProblems } from './load-checks.js';

const LEASE = 2000;
/** Reclaim runs every lease/2 after the lease (renewed every lease/3) lapses; allow scheduling slack. */
const BOUND = LEASE + LEASE / 2 + 1500;
const INTERRUPTED = /interrupted/;

/**
 * Two instances under load; A is killed with SIGKILL mid-run. Every task A was running ends `failed`
 * (interrupted) within the lease, none is left working, and everything on B ends as driven.
 */
export async function sigkill(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const t = report.phase('sigkill');
  const db = await ctx.database('sigkill');
  const cluster = await startCluster({
    name: 'kill',
    databaseUrl: db,
    auth: true,
    env: { MCP_LEASE: String(LEASE), MCP_POLL_INTERVAL: '300' },
  });
  const [a, b] = cluster.instances;
  try {
    const shared: LoadShared = {
      targets: [a, b],
      tally: t,
      until: Date.now() + 9000,
      stuckMs: 15_000,
      live: new Map(),
      attackRate: 0,
      problems: new Map(),
      retries: 0,
      // A task on the killed instance may end failed "interrupted": that is the promise.
      excused: (task, on) =>
        on === a && a.exit !== undefined && task.status === 'failed' && INTERRUPTED.test(task.error?.message ?? ''),
    };
    const token = cluster.token('doomed-owner');
    const doomed: string[] = [];
    for (let i = 0; i < 30; i++) {
      const args =
        i % 2
          ? { name: 'slow_compute', arguments: { seconds: 120, label: `d${i}` } }
          : { name: 'confirm_delete', arguments: { filename: `d${i}` } };
      const r = await rpc(a, t, 'tools/call', args, { caps: { ...TASKS, elicitation: {} }, token });
      if (r.json?.result?.taskId) doomed.push(r.json.result.taskId);
      t.started(args.name);
    }
    const clients = Array.from(
      { length: profile.killClients },
      (_, i) => new LoadClient(i, cluster.token(`user-${i}`), shared),
    );
    const running = Promise.all(clients.map((c) => c.run()));
    await sleep(3000);
    a.kill('SIGKILL');
    const killedAt = Date.now();
    shared.targets = [b];
    // Requests in flight to A when it died got no answer: a client retries those on B.
    shared.retryUntil = () => (b.alive ? shared.until + 30_000 : 0);
    let rows: Array<{ id: string; status: string; error: { message?: string } | null; updated_at: string }> = [];
    while (Date.now() - killedAt < BOUND + 3000) {
      rows = await query(db, 'SELECT id, status, error, updated_at FROM mcp_tasks WHERE id = ANY($1)', [doomed]);
      if (rows.every((r) => r.status === 'failed')) break;
      await sleep(100);
    }
    const failedAfter = rows
      .filter((r) => r.status === 'failed' && INTERRUPTED.test(r.error?.message ?? ''))
      .map((r) => Number(r.updated_at) - killedAt);
    const slowest = Math.max(...failedAfter);
    rows.forEach((r) => t.ended(r.status));
    t.note(
      'killed instance: its tasks failed after (ms, max / median)',
      `${slowest} / ${failedAfter.sort((x, y) => x - y)[Math.floor(failedAfter.length / 2)]}`,
    );
    report.check(
      t,
      'every task of the killed instance ended failed "interrupted" within the lease' +
        ` (${LEASE} ms + reclaim period, bound ${BOUND} ms)`,
      doomed.length === 30 && failedAfter.length === doomed.length && slowest <= BOUND,
      `${failedAfter.length}/${doomed.length} failed, slowest ${slowest} ms` +
        (failedAfter.length < doomed.length
          ? `; others: ${JSON.stringify(rows.filter((r) => r.status !== 'failed').slice(0, 3))}`
          : ''),
    );
    await running;
    t.note('load tasks that ended interrupted (created on the killed instance)', shared.excusedCount ?? 0);
    t.note('requests retried on B after the kill', shared.retries);
    const [{ n: live }] = await query<{ n: number }>(
      db,
      `SELECT count(*)::int AS n FROM mcp_tasks WHERE status IN ('working', 'input_required')`,
    );
    t.stuck += live;
    report.check(t, 'no task left working or input_required', live === 0, `${live}`);
    reportProblems(
      report,
      t,
      shared,
      {
        protocol: 'no protocol errors (beyond retried requests in flight to the killed instance)',
        ended: 'every other task ended as its user drove it',
        keys: 'no input key asked again after it was answered',
      },
      { unansweredOk: true },
    );
    report.check(
      t,
      'every task started also ended',
      sumOf(t.tasksStarted) === sumOf(t.tasksEnded),
      `started ${sumOf(t.tasksStarted)}, ended ${sumOf(t.tasksEnded)}`,
    );
    checkInstances(report, t, [a, b], [a]);
  } finally {
    await cluster.stop();
  }
}
