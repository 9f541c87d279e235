import type { Started } from '../contestants/lineup.js';
import { runLoad, type LoadResult } from '../load/closed-loop.js';
import { TASKS_CAPS, taskGet, toolCall, type RpcRequest } from '../load/rpc.js';
import { median } from '../load/stats.js';
import type { MetricKey } from '../report/metrics.js';
import type { Ctx } from './context.js';
import { cancelAll, startLongTasks } from './live-tasks.js';
import { warmUp } from './two-instances.warm-up.js';

/** One workload: clients in flight in all, what instance `i`'s worker `w` sends, what a good answer contains. */
export interface SplitLoad {
  clients: number;
  next: (instance: number, w: number) => RpcRequest;
  expect: string;
}

type Keys = [rps: MetricKey, p99: MetricKey, cpu: MetricKey];
type Both = Array<Started & { ok: true }>;

/**
 * The load one instance gets elsewhere in the run (tasks/get at the plan's concurrency, creates at its many
 * clients) on the first instance alone (`alone`) and split evenly over both (`name`), in interleaved rounds, so
 * that the pair is compared with one instance measured moments apart, not minutes earlier under another load of
 * the machine. Both are warm first (`warmUp`). Throughput is the sum, latency the worse of the two, server CPU per
 * request the sum over both processes (the idle second one's included: what running two costs).
 */
export async function measureTwoInstances(ctx: Ctx, pair: Started[], name: string, alone: string): Promise<void> {
  const gets: Keys = ['getRps', 'getP99', 'getCpu'];
  const creates: Keys = ['create50Rps', 'create50P99', 'create50Cpu'];
  const down = pair.find((s): s is Started & { ok: false } => !s.ok);
  if (down) {
    for (const k of [...gets, ...creates]) for (const who of [name, alone]) ctx.results.notRun(k, who, down.reason);
    return;
  }
  const both = pair as Both;
  try {
    // One live task per client on each instance, as in the single-instance rounds (reads of one id share a row).
    const n = ctx.plan.concurrency;
    const ids = await Promise.all(both.map((s) => startLongTasks(s.run, n, s.c.token)));
    const reads = ids.map((list, i) => list.map((id) => taskGet(id, { token: both[i].c.token })));
    await compare(ctx, both, { clients: n, next: (i, w) => reads[i][w % n], expect: '"status":"working"' }, [
      name,
      alone,
      gets,
    ]);
    await Promise.all(both.map((s, i) => cancelAll(s.run, ids[i], s.c.token).catch(() => undefined)));
    const create = both.map((s) =>
      toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token: s.c.token }),
    );
    const load = { clients: ctx.plan.createClients, next: (i: number) => create[i], expect: '"resultType":"task"' };
    await compare(ctx, both, load, [name, alone, creates]);
  } catch (err) {
    for (const k of [...gets, ...creates])
      for (const who of [name, alone]) if (!ctx.results.get(k, who)) ctx.results.notRun(k, who, (err as Error).message);
  }
}

async function compare(ctx: Ctx, both: Both, load: SplitLoad, [name, alone, keys]: [string, string, Keys]) {
  const { plan } = ctx;
  const warm = await warmUp(plan, both, load);
  ctx.log(`  ${name} ${keys[0]}: ${warm}`);
  const one: LoadResult[][] = [];
  const two: LoadResult[][] = [];
  for (let round = 0; round < plan.pairRounds; round++) {
    one.push(await measure(ctx, both.slice(0, 1), load, load.clients));
    two.push(await measure(ctx, both, load, Math.max(1, Math.round(load.clients / both.length))));
  }
  record(ctx, alone, one, keys);
  record(ctx, name, two, keys, warm);
}

/** One measured run on each of `on` at once (`concurrency` clients each); each one's result. */
function measure(ctx: Ctx, on: Both, load: SplitLoad, concurrency: number): Promise<LoadResult[]> {
  const { plan } = ctx;
  return Promise.all(
    on.map((s, i) =>
      runLoad({
        client: s.run.client,
        concurrency,
        warmupMs: Math.min(plan.warmupMs, 300),
        durationMs: plan.pairMs,
        maxRequests: plan.maxRequests,
        next: (w) => load.next(i, w),
        ok: (reply) => reply.status === 200 && reply.body.includes(load.expect),
        serverCpu: () => s.run.cpuSeconds(),
      }),
    ),
  );
}

function record(ctx: Ctx, who: string, rounds: LoadResult[][], [rps, p99, cpu]: Keys, note?: string): void {
  const answers = (r: LoadResult[]) => r.reduce((n, x) => n + x.requests - x.errors, 0);
  const used = (r: LoadResult[]) => r.reduce((n, x) => n + (x.serverCpuSeconds ?? 0), 0);
  const ok = rounds.reduce((n, r) => n + answers(r), 0);
  const errors = rounds.flat().reduce((n, r) => n + r.errors, 0);
  if (!ok) throw new Error(rounds.flat().find((r) => r.firstError)?.firstError ?? 'no successful answer');
  const sums = rounds.map((r) => r.reduce((n, x) => n + x.rps, 0));
  const notes = [
    rounds.length > 1 ? `median of ${rounds.length} rounds: ${sums.map(Math.round).join(', ')} req/s` : '',
    errors ? `${errors} errors (first: ${rounds.flat().find((r) => r.firstError)?.firstError})` : '',
    note ?? '',
  ].filter(Boolean);
  ctx.results.set(rps, who, median(sums), notes.join('; ') || undefined, sums);
  ctx.results.set(p99, who, median(rounds.map((r) => Math.max(...r.map((x) => x.latency.p99)))));
  const total = rounds.reduce((n, r) => n + used(r), 0);
  const perRound = rounds.map((r) => (used(r) * 1e6) / Math.max(1, answers(r)));
  ctx.results.set(cpu, who, (total * 1e6) / ok, undefined, perRound);
  ctx.log(`  ${who} ${rps}: ${Math.round(median(sums))} req/s, ${Math.round((total * 1e6) / ok)} µs CPU/req`);
}
