import { setTimeout as sleep } from 'node:timers/promises';
import { inPool, query, type RunContext } from '../support/context.js';
import { startCluster } from '../support/cluster.js';
import { clusterStore, type ClusterStore, type StoreKind } from '../support/cluster-store.js';
import {
  answerGo,
  DURABLE_CAPS,
  startTask,
  TERMINAL,
  until,
  untilTask,
  type DurableArgs,
} from '../support/durable-calls.js';
import { rpc } from '../support/http.js';
import { pgLedger } from '../support/ledger.js';
import { TaskWatch } from '../support/task-watch.js';
import { checkResumeSigkill, type KillCase, type Kind } from './resume-sigkill.checks.js';

/**
 * Answers and cancels sent while the task is orphaned must land before its lease lapses: 4 s leaves that window
 * ≥ 2.7 s on a busy 2-core box (at 2 s one run missed it). Shorter leases once also showed a store bug, fixed since:
 * a renewal deadlocking with the same instance's batched writes, twice in a row, let live runs be taken over.
 */
const LEASE = 4000;
const POLL = 300;
/**
 * Six seconds of work: running when the kill comes, and again after the takeover. Coarse steps: each writes its
 * progress (and checkpoint), and 150 tasks writing fast starve the instances' lease renewals on a shared 2-core box.
 */
const STEPS = 10;
const STEP_MS = 600;
const KINDS: Kind[] = ['plain', 'checkpoint', 'answered', 'orphan-answer', 'outstanding'];
/** Tasks of the killed instance cancelled while no instance runs them. */
const CANCELLED = 6;
const OWNERS = 8;

const argsOf = (kind: Kind, i: number): DurableArgs => ({
  steps: STEPS,
  stepMs: STEP_MS,
  label: `${kind}-${i}`,
  ...(kind === 'checkpoint' ? { checkpoint: true } : {}),
  ...(['answered', 'orphan-answer', 'outstanding'].includes(kind) ? { ask: true } : {}),
});

/**
 * Three instances on PostgreSQL (or the Redis store and bus) running resumable `rel_durable` tasks of every kind; one
 * is killed (SIGKILL) mid-run. Its tasks are taken over by the others and complete once each, answers kept,
 * checkpoints read.
 */
export function resumeSigkill(kind: StoreKind): (ctx: RunContext) => Promise<void> {
  return async (ctx) => {
    const store = await clusterStore(ctx, kind, kind === 'postgres' ? 'resume_sigkill' : `resume_sigkill_${kind}`);
    try {
      await run(ctx, store);
    } finally {
      await store.stop();
    }
  };
}

async function run(ctx: RunContext, store: ClusterStore): Promise<void> {
  const { report } = ctx;
  const t = report.phase(store.kind === 'postgres' ? 'resume-sigkill' : `resume-sigkill (${store.kind})`);
  const total = ctx.profile.name === 'long' ? 300 : 150;
  const { view, ledgerDb } = store;
  const env = { ...store.env, MCP_LEASE: String(LEASE), MCP_POLL_INTERVAL: String(POLL) };
  const name = store.kind === 'postgres' ? 'resume' : `resume-${store.kind}`;
  // With auth: owners share the tasks out, each under the demo's limit of live tasks per principal.
  const cluster = await startCluster({ name, databaseUrl: store.databaseUrl, count: 3, auth: true, env });
  const [victim, b, c] = cluster.instances;
  const watch = new TaskWatch(() => b, t);
  try {
    // i % 5 and i % 3: every kind on every instance.
    const cases: KillCase[] = Array.from({ length: total }, (_, i) => ({
      i,
      kind: KINDS[i % KINDS.length],
      on: i % 3,
      go: `go-${i}`,
      id: '',
      token: cluster.token(`owner-${i % OWNERS}`),
    }));
    const cancelled: KillCase[] = Array.from({ length: CANCELLED }, (_, n) => ({
      i: total + n,
      kind: 'cancelled',
      on: 0,
      go: '',
      id: '',
      token: cluster.token('owner-cancelling'),
    }));
    const all = [...cases, ...cancelled];
    await inPool(all, 12, async (k) => {
      k.id = await startTask(cluster.instances[k.on], t, 'rel_durable', argsOf(k.kind, k.i), k.token);
    });
    process.stdout.write(`  ${total} resumable tasks over 3 instances, ${CANCELLED} more to cancel\n`);
    await inPool(
      cases.filter((k) => k.kind === 'answered'),
      8,
      async (k) => {
        const on = cluster.instances[k.on];
        await untilTask(on, t, k.id, (task) => task.status === 'input_required', 10_000, k.token);
        k.answered = { ok: await answerGo(on, t, k.id, k.go, k.token), at: Date.now() };
        watch.watch(k.id, k.token);
      },
    );
    const doomed = all.filter((k) => k.on === 0);
    // The doomed runs took their answers and wrote checkpoints: the kill cuts work under way.
    const ready = await until(async () => {
      const rows = await view.some(doomed.filter((k) => k.kind === 'checkpoint').map((k) => k.id));
      const answered = await query<{ n: string }>(
        ledgerDb,
        'SELECT count(DISTINCT task_id) AS n FROM rel_answers WHERE task_id = ANY($1)',
        [doomed.filter((k) => k.kind === 'answered').map((k) => k.id)],
      );
      return (
        rows.every((r) => Number(r.checkpoint ?? 0) >= 2) &&
        Number(answered[0].n) === doomed.filter((k) => k.kind === 'answered').length
      );
    }, 10_000);
    if (!ready) process.stdout.write('  (the doomed tasks were not all under way before the kill)\n');
    const asking = await view.some(doomed.map((k) => k.id));
    for (const k of doomed) k.statusAtKill = asking.find((r) => r.id === k.id)?.status;

    victim.kill('SIGKILL');
    const killedAt = Date.now();
    // The lease each doomed task had at the kill (nothing renews it now; a write in flight has landed by then).
    const leases = sleep(200).then(() => view.some(doomed.map((k) => k.id)));
    // Answers and cancels while orphaned, through another instance: they must land before the leases lapse.
    await Promise.all([
      inPool(
        doomed.filter((k) => k.kind === 'orphan-answer'),
        8,
        async (k) => {
          k.answered = { ok: await answerGo(b, t, k.id, k.go, k.token), at: Date.now() };
        },
      ),
      inPool(cancelled, 6, async (k) => {
        const r = await rpc(b, t, 'tasks/cancel', { taskId: k.id }, { caps: DURABLE_CAPS, token: k.token });
        k.cancelled = { ok: r.status === 200 && !!r.json?.result && !r.json.error, at: Date.now() };
      }),
    ]);
    const lapse = new Map((await leases).map((r) => [r.id, r.attempt === 1 ? Number(r.leaseExpiresAt) : NaN]));
    // The same kind on the other instances: answered as any question is.
    await inPool(
      cases.filter((k) => k.kind === 'orphan-answer' && k.on !== 0),
      8,
      async (k) => {
        const on = cluster.instances[k.on];
        await untilTask(on, t, k.id, (task) => task.status === 'input_required', 10_000, k.token);
        k.answered = { ok: await answerGo(on, t, k.id, k.go, k.token), at: Date.now() };
      },
    );
    const resumable = doomed.filter((k) => k.kind !== 'cancelled').map((k) => k.id);
    const tookOver = await until(async () => (await view.some(resumable)).every((r) => r.attempt >= 2), 15_000);
    // Still asking after the takeover; then answered.
    await inPool(
      cases.filter((k) => k.kind === 'outstanding'),
      8,
      async (k) => {
        const on = k.on === 0 ? c : cluster.instances[k.on];
        const task = await untilTask(on, t, k.id, (x) => x.status === 'input_required', 10_000, k.token);
        k.afterTakeover = {
          status: task?.status,
          asking: Object.keys(task?.inputRequests ?? {}),
          message: task?.statusMessage,
        };
        k.answered = { ok: await answerGo(on, t, k.id, k.go, k.token), at: Date.now() };
      },
    );
    const ended = await until(async () => {
      const rows = await view.some(all.map((k) => k.id));
      return rows.length === all.length && rows.every((r) => TERMINAL.includes(r.status));
    }, 30_000);
    await watch.stop();
    const final = await view.some(all.map((k) => k.id));
    for (const r of final) t.ended(r.status);
    checkResumeSigkill(report, t, {
      cases: all,
      ledger: await pgLedger(ledgerDb),
      final: new Map(final.map((r) => [r.id, r])),
      lapse,
      killedAt,
      names: cluster.instances.map((d) => `pid-${d.child.pid}`),
      watch,
      lease: LEASE,
      poll: POLL,
      steps: STEPS,
      tookOver,
      ended,
    });
    for (const d of [b, c])
      report.check(t, `${d.name}: no unhandled rejection/exception`, d.unhandled.length === 0, d.unhandled[0] ?? '');
  } finally {
    await watch.stop();
    await cluster.stop();
  }
}
