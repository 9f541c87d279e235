import { isolationAttack } from '../load/attacker.js';
import { LoadClient, type LoadShared } from '../load/client.js';
import type { RunContext } from '../support/context.js';
import { startCluster } from '../support/cluster.js';
import { clusterStore, type ClusterStore, type StoreKind } from '../support/cluster-store.js';
import { sumOf, type PhaseTally } from '../support/tally.js';
import { checkInstances, reportProblems } from './load-checks.js';
import { checkStopEvents } from './telemetry-truth.js';

/**
 * ≥ 200 users at once on two instances over PostgreSQL (and its bus), or over Redis (store and bus) — auth mode,
 * one subject each — each running tasks it answers, declines, cancels or lets complete, created on one instance and
 * driven through either; meanwhile they try to read, answer and cancel each other's tasks.
 */
export function clusterLoad(kind: StoreKind): (ctx: RunContext) => Promise<void> {
  return async (ctx) => {
    const t = ctx.report.phase(kind === 'postgres' ? 'load+isolation' : `load+isolation (${kind})`);
    const store = await clusterStore(ctx, kind, kind === 'postgres' ? 'load' : `load_${kind}`);
    try {
      await run(ctx, t, store);
    } finally {
      await store.stop();
    }
  };
}

async function run(ctx: RunContext, t: PhaseTally, store: ClusterStore): Promise<void> {
  const { report, profile } = ctx;
  const cluster = await startCluster({
    name: store.kind === 'postgres' ? 'load' : `load-${store.kind}`,
    databaseUrl: store.databaseUrl,
    auth: true,
    env: { ...store.env, MCP_POLL_INTERVAL: '500', REL_RECORD_STOPS: '1' },
  });
  try {
    const attacks = new Map<string, number>();
    const shared: LoadShared = {
      targets: cluster.instances,
      tally: t,
      until: Date.now() + profile.loadSeconds * 1000,
      stuckMs: 20_000,
      live: new Map(),
      attackRate: 0.5,
      problems: new Map(),
      retries: 0,
    };
    shared.attack = isolationAttack(shared, t, (sub, client) => cluster.token(sub, client), attacks);
    const clients = Array.from(
      { length: profile.loadClients },
      (_, i) => new LoadClient(i, cluster.token(`user-${i}`), shared),
    );
    const started = Date.now();
    await Promise.all(clients.map((c) => c.run()));
    const seconds = (Date.now() - started) / 1000;
    t.note('users at once / duration', `${clients.length} / ${seconds.toFixed(1)} s`);
    t.note('tasks per second', (sumOf(t.tasksStarted) / seconds).toFixed(1));
    t.note('isolation attempts', [...attacks.entries()].map(([k, v]) => `${k} ×${v}`).join(', '));
    const live = (await store.view.all()).filter((r) => r.status === 'working' || r.status === 'input_required').length;
    t.stuck += live;
    reportProblems(report, t, shared, {
      protocol: "zero protocol errors on the users' own requests",
      ended: 'every task reached the terminal state its user drove it to',
      keys: 'no input key asked again after it was answered',
    });
    const attempts = sumOf(attacks);
    const breaches = shared.problems.get('isolation: another owner got something other than "Task not found"');
    report.check(
      t,
      `no one reads, answers or cancels another's task: every attempt got "Task not found", byte for byte`,
      attempts >= profile.loadClients && !breaches,
      `${attempts} attempts, ${breaches?.count ?? 0} breaches${breaches ? `: ${breaches.examples.join(' | ')}` : ''}`,
    );
    report.check(t, `no task left working or input_required in the store (${store.kind})`, live === 0, `${live}`);
    report.check(
      t,
      'every task started also ended',
      sumOf(t.tasksStarted) === sumOf(t.tasksEnded) && sumOf(t.tasksStarted) > 0,
      `started ${sumOf(t.tasksStarted)}, ended ${sumOf(t.tasksEnded)}`,
    );
    await checkStopEvents(report, t, store.view, cluster.instances, cluster.token('telemetry-reader'));
    checkInstances(report, t, cluster.instances);
  } finally {
    await cluster.stop();
  }
}
