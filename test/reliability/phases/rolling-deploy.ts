import { setTimeout as sleep } from 'node:timers/promises';
import { DeployClient, type ClientErrors, type PlannedTask } from '../load/deploy-client.js';
import { startCluster } from '../support/cluster.js';
import type { RunContext } from '../support/context.js';
import { replace, type Restart } from '../support/rolling-restart.js';
import { Rotation } from '../support/rotation.js';
import { logTaskChanges } from '../support/task-log.js';
import { checkRollingDeploy } from './rolling-deploy.checks.js';

export const LEASE = 6_000;
/** Shorter than every task, so most runs are handed over rather than finished in the grace. */
const GRACE = 2_000;
const POLL = 500;
const STEP_MS = 500;

/**
 * The run's size. `rel_durable` gives up after 3 attempts, so no task may be running on three instances as each
 * is stopped: a checkpointing task (which goes on where it was) must end within two restart spacings of any
 * restart, `seconds[1]` + 2 hand-overs < 2 × `spacingS`; one without (it runs again from the start) within one,
 * `plainSeconds[1]` + a hand-over < `spacingS`. Tasks start evenly until 8 s before the last restart.
 */
const SIZES = {
  ci: { tasks: 100, clients: 20, seconds: [10, 25], plainSeconds: [10, 13], spacingS: 21, firstS: 10 },
  long: { tasks: 200, clients: 50, seconds: [20, 60], plainSeconds: [20, 33], spacingS: 42, firstS: 10 },
};

/**
 * Issue 38's rolling deploy: three instances on PostgreSQL behind a load balancer, clients starting resumable
 * tasks and polling them; each instance in turn is taken out of rotation, SIGTERMed and replaced. Every task
 * ends completed, no client sees an error, and no task goes without a running attempt for longer than `lease`.
 */
export async function rollingDeploy(ctx: RunContext): Promise<void> {
  const { report, profile } = ctx;
  const size = SIZES[profile.name];
  const t = report.phase('rolling-deploy');
  const db = await ctx.database('rolling_deploy');
  const cluster = await startCluster({
    name: 'rd',
    databaseUrl: db,
    auth: true,
    count: 3,
    env: { MCP_LEASE: String(LEASE), MCP_SHUTDOWN_GRACE: String(GRACE), MCP_POLL_INTERVAL: String(POLL) },
    instanceEnv: (name) => ({ REL_INSTANCE: name }),
  });
  try {
    await logTaskChanges(db);
    const first = [...cluster.instances];
    const lb = new Rotation(first);
    const errors: ClientErrors = new Map();
    const restartsAt = first.map((_, i) => (size.firstS + i * size.spacingS) * 1000);
    const plan = planTasks(size, restartsAt[2] - 8_000, profile.seed);
    let deadline = Number.MAX_SAFE_INTEGER;
    const clients = Array.from(
      { length: size.clients },
      (_, i) =>
        new DeployClient(cluster.token(`deployer-${i}`), lb, t, errors, { pollMs: 1000, deadline: () => deadline }),
    );
    const t0 = Date.now();
    const seen = Promise.all(
      clients.map((c, i) =>
        c.run(
          plan.filter((_, j) => j % size.clients === i),
          t0,
        ),
      ),
    );
    const restarts: Restart[] = [];
    for (const [i, old] of first.entries()) {
      await sleep(Math.max(0, t0 + restartsAt[i] - Date.now()));
      restarts.push(await replace(cluster, lb, old, GRACE + 10_000));
    }
    deadline = Date.now() + (size.seconds[1] + 30) * 1000;
    const tasks = (await seen).flat();
    t.note('tasks / clients', `${plan.length} rel_durable tasks / ${size.clients} clients polling about every 1 s`);
    t.note(
      'task length (checkpointing / from the start again)',
      `${size.seconds.join('–')} s / ${size.plainSeconds.join('–')} s, in ${STEP_MS} ms steps`,
    );
    t.note('lease / shutdownGrace / restart spacing', `${LEASE} / ${GRACE} / ${size.spacingS * 1000} ms`);
    t.note('tasks a poll caught "Resumed after its instance stopped"', tasks.filter((s) => s.sawResumed).length);
    t.note('deploy (first task → last task ended)', `${((Date.now() - t0) / 1000).toFixed(1)} s`);
    await checkRollingDeploy(report, t, { db, tasks, restarts, lb, errors, lease: LEASE, graceMs: GRACE, poll: POLL });
  } finally {
    await cluster.stop();
  }
}

/**
 * Tasks spread evenly over `windowMs`, their lengths from the run's seed; every third one does not checkpoint
 * (a later attempt starts over).
 */
function planTasks(size: (typeof SIZES)['ci'], windowMs: number, seed: number): PlannedTask[] {
  // The bounds above (a hand-over takes lease/2 + a little; 4 s allowed), kept whatever the sizes become.
  if (size.seconds[1] + 8 >= 2 * size.spacingS || size.plainSeconds[1] + 4 >= size.spacingS)
    throw new Error(`rolling-deploy: tasks too long for a ${size.spacingS} s restart spacing (maxAttempts 3)`);
  return Array.from({ length: size.tasks }, (_, i) => {
    const checkpoint = i % 3 !== 0;
    const [min, max] = checkpoint ? size.seconds : size.plainSeconds;
    const seconds = min + (((i * 2654435761 + seed) % 2 ** 32) / 2 ** 32) * (max - min);
    const label = `rd-${i}`;
    return {
      label,
      at: Math.round((i * windowMs) / size.tasks),
      args: { steps: Math.round((seconds * 1000) / STEP_MS), stepMs: STEP_MS, checkpoint, label },
    };
  });
}
