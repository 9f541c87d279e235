import type { Started } from '../contestants/lineup.js';
import { runLoad, type LoadResult } from '../load/closed-loop.js';
import { taskGet, toolCall, type RpcRequest } from '../load/rpc.js';
import { median } from '../load/stats.js';
import type { MetricKey } from '../report/metrics.js';
import type { Ctx } from './context.js';
import { cancelAll, startLongTasks } from './live-tasks.js';

/** The figures a workload reports: throughput and p99 always, p50 and server CPU per request where it has them. */
type Keys = { rps: MetricKey; p50?: MetricKey; p99: MetricKey; cpu?: MetricKey };
const GET: Keys = { rps: 'getRps', p50: 'getP50', p99: 'getP99', cpu: 'getCpu' };
const CALL: Keys = { rps: 'callRps', p50: 'callP50', p99: 'callP99', cpu: 'callCpu' };

export interface Workload {
  keys: Keys;
  /** Requests in flight; default the plan's `concurrency`. */
  clients?: (plan: Ctx['plan']) => number;
  /** Per contestant: what to send, what a good answer contains, and what to undo afterwards. */
  prepare(
    s: Started & { ok: true },
    n: number,
  ): Promise<{ next: (w: number) => RpcRequest; expect: string; done?: () => Promise<void> }>;
}

/** tasks/get spread over one live task (`slow_compute`, an hour) per client. */
export const TASKS_GET: Workload = {
  keys: GET,
  async prepare(s, n) {
    const ids = await startLongTasks(s.run, n, s.c.token);
    const reqs = ids.map((id) => taskGet(id, { token: s.c.token }));
    return {
      next: (w) => reqs[w % reqs.length],
      expect: '"status":"working"',
      done: () => cancelAll(s.run, ids, s.c.token),
    };
  },
};

/** A synchronous tools/call of the trivial `greet` tool. */
export const SYNC_CALL: Workload = {
  keys: CALL,
  async prepare(s) {
    const req = toolCall('greet', { name: 'bench' }, { token: s.c.token });
    return { next: () => req, expect: 'Hello, bench!' };
  },
};

/**
 * One workload, at its clients in flight (default the plan's concurrency), on several running contestants in
 * interleaved rounds (A B C, A B C, …) so a disturbance on the machine hits them alike; each figure is the median
 * over the rounds, server CPU per request the total over them.
 */
export async function headToHead(ctx: Ctx, contestants: Started[], w: Workload): Promise<void> {
  const { plan } = ctx;
  const clients = w.clients?.(plan) ?? plan.concurrency;
  const live = [] as Array<{
    s: Started & { ok: true };
    next: (w: number) => RpcRequest;
    expect: string;
    done?: () => Promise<void>;
    runs: LoadResult[];
  }>;
  for (const s of contestants) {
    if (!s.ok) {
      notRun(ctx, w.keys, s.c.name, s.reason);
      continue;
    }
    try {
      live.push({ s, runs: [], ...(await w.prepare(s, clients)) });
    } catch (err) {
      notRun(ctx, w.keys, s.c.name, (err as Error).message);
    }
  }
  for (let round = 0; round < plan.rounds; round++) {
    for (const l of live) {
      l.runs.push(
        await runLoad({
          client: l.s.run.client,
          concurrency: clients,
          warmupMs: round === 0 ? plan.warmupMs : Math.min(plan.warmupMs, 300),
          durationMs: plan.durationMs,
          maxRequests: plan.maxRequests,
          next: l.next,
          ok: (reply) => reply.status === 200 && reply.body.includes(l.expect),
          serverCpu: () => l.s.run.cpuSeconds(),
        }),
      );
    }
  }
  for (const l of live) {
    record(ctx, w.keys, l.s.c.name, l.runs);
    await l.done?.().catch(() => undefined);
  }
}

function record(ctx: Ctx, k: Keys, who: string, runs: LoadResult[]): void {
  const ok = runs.reduce((n, r) => n + r.requests - r.errors, 0);
  const errors = runs.reduce((n, r) => n + r.errors, 0);
  const firstError = runs.find((r) => r.firstError)?.firstError;
  if (ok === 0) return notRun(ctx, k, who, firstError ?? 'no successful answer');
  const clientCpu = Math.max(...runs.map((r) => r.clientCpu));
  const notes = [
    runs.length > 1 ? `median of ${runs.length} rounds: ${runs.map((r) => Math.round(r.rps)).join(', ')} req/s` : '',
    clientCpu > 0.9 ? `load generator at ${Math.round(clientCpu * 100)}% of a core: a lower bound` : '',
    errors ? `${errors} errors (first: ${firstError})` : '',
  ].filter(Boolean);
  const rps = median(runs.map((r) => r.rps));
  const p50 = median(runs.map((r) => r.latency.p50));
  const p99 = median(runs.map((r) => r.latency.p99));
  const cpuUs = (runs.reduce((s, r) => s + (r.serverCpuSeconds ?? 0), 0) * 1e6) / ok;
  // Each round's figure too: a comparison of two contestants can take the median of their per-round ratios.
  const cpuRounds = runs.map((r) => ((r.serverCpuSeconds ?? 0) * 1e6) / Math.max(1, r.requests - r.errors));
  ctx.results.set(
    k.rps,
    who,
    rps,
    notes.join('; ') || undefined,
    runs.map((r) => r.rps),
  );
  if (k.p50) ctx.results.set(k.p50, who, p50);
  ctx.results.set(k.p99, who, p99);
  if (k.cpu) ctx.results.set(k.cpu, who, cpuUs, undefined, cpuRounds);
  const figures = `p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms, ${Math.round(cpuUs)} µs server CPU/req`;
  const noted = notes.length ? ` (${notes.join('; ')})` : '';
  ctx.log(`  ${who} ${k.rps}: ${Math.round(rps)} req/s, ${figures}${noted}`);
}

function notRun(ctx: Ctx, k: Keys, who: string, reason: string): void {
  for (const key of [k.rps, k.p50, k.p99, k.cpu]) if (key) ctx.results.notRun(key, who, reason);
}
