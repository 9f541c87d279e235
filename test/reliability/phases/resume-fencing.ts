import { setTimeout as sleep } from 'node:timers/promises';
import { query, type RunContext } from '../support/context.js';
import { startCluster } from '../support/cluster.js';
import { startTask, TERMINAL, until, untilTask } from '../support/durable-calls.js';
import { pgLedger } from '../support/ledger.js';
import { TaskWatch } from '../support/task-watch.js';
import { checkFencing } from './resume-fencing.checks.js';

const LEASE = 2000;
/**
 * Six seconds of work, a checkpoint after each step; deaf to its signal, so A's next checkpoint is tried whatever A
 * learns first on waking (a renewal refused, a write refused), and only the fence can refuse it.
 */
const ARGS = { steps: 40, stepMs: 150, checkpoint: true, ignoreSignal: true, label: 'fenced' };
const step = (task: any): number => Number(/step (\d+) on/.exec(task?.statusMessage ?? '')?.[1] ?? 0);

/**
 * A real stalled process: A runs a checkpointing `rel_durable` task and is stopped (SIGSTOP) past its lease; B takes
 * the task over (attempt 2); A is continued (SIGCONT) while B runs it. A's writes are refused — its next checkpoint,
 * its progress — and it records no completion; the task ends completed by B, once.
 */
export async function resumeFencing(ctx: RunContext): Promise<void> {
  const { report } = ctx;
  const t = report.phase('resume-fencing');
  const db = await ctx.database('resume_fencing');
  const env = { MCP_LEASE: String(LEASE), MCP_POLL_INTERVAL: '300' };
  const cluster = await startCluster({ name: 'fence', databaseUrl: db, env });
  const [a, b] = cluster.instances;
  const watch = new TaskWatch(() => b, t, 100);
  try {
    const id = await startTask(a, t, 'rel_durable', ARGS);
    const before = await untilTask(a, t, id, (x) => step(x) >= 4);
    watch.watch(id);
    a.kill('SIGSTOP');
    const stoppedAt = Date.now();
    const attemptIs2 = async () =>
      (await query<{ attempt: number }>(db, 'SELECT attempt FROM mcp_tasks WHERE id = $1', [id]))[0]?.attempt === 2;
    const tookOver = await until(attemptIs2, 10_000);
    const takenAt = Date.now();
    // B under way before A wakes: A's stale writes then race B's live ones.
    const onB = await untilTask(b, t, id, (x) => / attempt 2 /.test(`${x.statusMessage} `) && step(x) > step(before));
    a.kill('SIGCONT');
    const continuedAt = Date.now();
    const ended = await until(
      async () =>
        TERMINAL.includes(
          (await query<{ status: string }>(db, 'SELECT status FROM mcp_tasks WHERE id = $1', [id]))[0]?.status,
        ),
      20_000,
    );
    // A's own note of what it was refused, written once it woke.
    await until(async () => ((await pgLedger(db)).stops.get(id)?.length ?? 0) > 0, 3000);
    await sleep(300);
    await watch.stop();
    const [row] = await query<{ status: string; attempt: number; result: any }>(
      db,
      'SELECT status, attempt, result FROM mcp_tasks WHERE id = $1',
      [id],
    );
    t.ended(row?.status ?? 'unknown');
    t.note(
      'A stopped at step / B took over after (ms) / A continued at B step',
      [step(before), takenAt - stoppedAt, step(onB)].join(' / '),
    );
    checkFencing(report, t, {
      id,
      row,
      ledger: await pgLedger(db),
      looks: watch.since(id, takenAt),
      lookedAfterContinue: watch.since(id, continuedAt).length,
      a: `pid-${a.child.pid}`,
      b: `pid-${b.child.pid}`,
      tookOver,
      ended,
    });
    report.check(
      t,
      'A lived on after SIGCONT, with no unhandled rejection/exception in either instance',
      a.alive && a.unhandled.length === 0 && b.unhandled.length === 0,
      [...a.unhandled, ...b.unhandled][0] ?? JSON.stringify(a.exit ?? 'up'),
    );
  } finally {
    a.kill('SIGCONT');
    await watch.stop();
    await cluster.stop();
  }
}
