import type { Started } from '../contestants/lineup.js';
import { runLoad, type LoadResult } from '../load/closed-loop.js';
import { TASKS_CAPS, taskGet, toolCall, type RpcRequest } from '../load/rpc.js';
import type { MetricKey } from '../report/metrics.js';
import type { Ctx } from './context.js';
import { cancelAll, startLongTasks } from './live-tasks.js';

/**
 * The load one instance gets elsewhere in the run (tasks/get at the plan's concurrency, creates at its many
 * clients), split evenly over two instances on one database and sent to both at once. Recorded under `name`:
 * throughput is the sum, latency the worse of the two, server CPU per request the sum over both processes.
 */
export async function measureTwoInstances(ctx: Ctx, pair: Started[], name: string): Promise<void> {
  const keys: MetricKey[] = ['getRps', 'getP99', 'getCpu', 'create50Rps', 'create50P99', 'create50Cpu'];
  const down = pair.find((s): s is Started & { ok: false } => !s.ok);
  if (down) {
    for (const k of keys) ctx.results.notRun(k, name, down.reason);
    return;
  }
  const both = pair as Array<Started & { ok: true }>;
  const half = (n: number) => Math.max(1, Math.round(n / both.length));
  try {
    const perGet = half(ctx.plan.concurrency);
    const ids = await Promise.all(both.map((s) => startLongTasks(s.run, perGet, s.c.token)));
    const gets = ids.map((list, i) => list.map((id) => taskGet(id, { token: both[i].c.token })));
    const get = await splitLoad(ctx, both, perGet, (i, w) => gets[i][w % gets[i].length], '"status":"working"');
    record(ctx, name, get, ['getRps', 'getP99', 'getCpu']);
    await Promise.all(both.map((s, i) => cancelAll(s.run, ids[i], s.c.token).catch(() => undefined)));
    const creates = both.map((s) =>
      toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token: s.c.token }),
    );
    const create = await splitLoad(ctx, both, half(ctx.plan.createClients), (i) => creates[i], '"resultType":"task"');
    record(ctx, name, create, ['create50Rps', 'create50P99', 'create50Cpu']);
  } catch (err) {
    for (const k of keys) if (!ctx.results.get(k, name)) ctx.results.notRun(k, name, (err as Error).message);
  }
}

/** One measured run per round on every instance at once; per round, each instance's result. */
async function splitLoad(
  ctx: Ctx,
  both: Array<Started & { ok: true }>,
  concurrency: number,
  next: (instance: number, w: number) => RpcRequest,
  expect: string,
): Promise<LoadResult[][]> {
  const { plan } = ctx;
  const rounds: LoadResult[][] = [];
  for (let round = 0; round < plan.rounds; round++) {
    rounds.push(
      await Promise.all(
        both.map((s, i) =>
          runLoad({
            client: s.run.client,
            concurrency,
            warmupMs: round === 0 ? plan.warmupMs : Math.min(plan.warmupMs, 300),
            durationMs: plan.durationMs,
            maxRequests: plan.maxRequests,
            next: (w) => next(i, w),
            ok: (reply) => reply.status === 200 && reply.body.includes(expect),
            serverCpu: () => s.run.cpuSeconds(),
          }),
        ),
      ),
    );
  }
  return rounds;
}

function record(ctx: Ctx, name: string, rounds: LoadResult[][], [rps, p99, cpu]: MetricKey[]): void {
  const sums = rounds.map((r) => r.reduce((n, x) => n + x.rps, 0)).sort((a, b) => a - b);
  const median = sums[Math.floor(sums.length / 2)];
  const errors = rounds.flat().reduce((n, r) => n + r.errors, 0);
  const ok = rounds.flat().reduce((n, r) => n + r.requests - r.errors, 0);
  if (!ok) throw new Error(rounds.flat().find((r) => r.firstError)?.firstError ?? 'no successful answer');
  const notes = [
    rounds.length > 1 ? `median of ${rounds.length} rounds: ${sums.map(Math.round).join(', ')} req/s` : '',
    errors ? `${errors} errors (first: ${rounds.flat().find((r) => r.firstError)?.firstError})` : '',
  ].filter(Boolean);
  ctx.results.set(rps, name, median, notes.join('; ') || undefined);
  const worst = rounds.map((r) => Math.max(...r.map((x) => x.latency.p99))).sort((a, b) => a - b);
  ctx.results.set(p99, name, worst[Math.floor(worst.length / 2)]);
  const used = rounds.flat().reduce((n, r) => n + (r.serverCpuSeconds ?? 0), 0);
  ctx.results.set(cpu, name, (used * 1e6) / ok);
  ctx.log(`  ${name} ${rps}: ${Math.round(median)} req/s (sum of two), ${Math.round((used * 1e6) / ok)} µs CPU/req`);
}
