import { serverStats, type Started } from '../contestants/lineup.js';
import { runLoad } from '../load/closed-loop.js';
import { taskGet, toolCall, type RpcRequest } from '../load/rpc.js';
import type { MetricKey } from '../report/metrics.js';
import { freshTokens } from '../support/tokens.js';
import type { Ctx } from './context.js';
import { cancelAll, startLongTasks } from './live-tasks.js';

const IN_FLIGHT = 8;
/** Requests of each warm-up: it is bounded in time, this only sizes the pool of fresh tokens. */
const WARMUP_TOKENS = 4_000;
/**
 * A round's requests per contestant and kind go in this many slices, every contestant's slice in turn: the
 * host's speed swings within seconds (one contestant's rounds read 30 to 60 µs on a quiet host), so two
 * contestants compared must be measured across the same moments, not one after the other.
 */
const SLICES = 5;
/**
 * Unmeasured requests just before each measured slice: a process that sat idle while the others were measured
 * starts slower (its first round read up to twice its later ones), whoever it is.
 */
const PRIME = 100;

interface Kind {
  metric: MetricKey;
  /** The next request to send (a closure: with fresh tokens, each call hands out a new one). */
  next: () => RpcRequest;
  expect: string;
  usedUs: number;
  requests: number;
  perRound: number[];
}

/**
 * CPU per request: each server's own process.cpuUsage() (read through `bench_stats`) before and
 * after a fixed number of requests, for a synchronous tools/call and a tasks/get; contestants run side
 * by side and are measured in rounds after an unmeasured warm-up. A round's requests go in slices, each
 * contestant's in turn (every other turn in reverse order), each slice just after an unmeasured burst. Each
 * figure keeps its rounds, and a target comparing two takes the median of the per-round ratios. A
 * `freshTokens` contestant gets a token it has never seen with every request, so no verification is skipped.
 */
export async function measureCpuCost(ctx: Ctx, contestants: Started[]): Promise<void> {
  const live: Array<{ s: Started & { ok: true }; ids: string[]; kinds: Kind[] }> = [];
  for (const s of contestants) {
    if (!s.ok) {
      for (const k of ['cpuCall', 'cpuGet'] as const) ctx.results.notRun(k, s.c.name, s.reason);
      continue;
    }
    try {
      const ids = await startLongTasks(s.run, 1, s.c.token);
      const perKind = ctx.plan.cpuRounds * SLICES * (sliceOf(ctx) + PRIME) + WARMUP_TOKENS;
      const pool = s.c.freshTokens ? freshTokens(s.run.port, 2 * perKind) : undefined;
      const kind = (metric: MetricKey, make: (token?: string) => RpcRequest, expect: string, offset: number): Kind => {
        let i = 0;
        const fixed = make(s.c.token);
        const next = pool ? () => make(pool[offset + (i++ % perKind)]) : () => fixed;
        return { metric, next, expect, usedUs: 0, requests: 0, perRound: [] };
      };
      const kinds = [
        kind('cpuCall', (token) => toolCall('greet', { name: 'bench' }, { token }), 'Hello, bench!', 0),
        kind('cpuGet', (token) => taskGet(ids[0], { token }), '"status":"working"', perKind),
      ];
      for (const k of kinds) await load(s, k, WARMUP_TOKENS, ctx.plan.warmupMs * 2);
      live.push({ s, ids, kinds });
    } catch (err) {
      for (const k of ['cpuCall', 'cpuGet'] as const) ctx.results.notRun(k, s.c.name, (err as Error).message);
    }
  }
  const failed = new Set<(typeof live)[number]>();
  const perSlice = sliceOf(ctx);
  for (let round = 0; round < ctx.plan.cpuRounds; round++) {
    const sums = new Map<Kind, { us: number; requests: number }>();
    for (let slice = 0; slice < SLICES; slice++) {
      // Every other slice in reverse: no contestant is always measured first (or right after the same neighbour).
      for (const l of (round * SLICES + slice) % 2 ? [...live].reverse() : live) {
        if (failed.has(l)) continue;
        try {
          for (const k of l.kinds) {
            await load(l.s, k, PRIME, 600_000);
            const before = await serverStats(l.s.run, l.s.c.token);
            const r = await load(l.s, k, perSlice, 600_000);
            const after = await serverStats(l.s.run, l.s.c.token);
            if (r.errors) throw new Error(`${r.errors} failed requests (first: ${r.firstError})`);
            const sum = sums.get(k) ?? { us: 0, requests: 0 };
            sum.us += after.cpu.user + after.cpu.system - (before.cpu.user + before.cpu.system);
            sum.requests += r.requests;
            sums.set(k, sum);
          }
        } catch (err) {
          // One contestant failing must not cost the others their figures.
          const reason = l.s.run.died ?? (err as Error).message;
          for (const k of ['cpuCall', 'cpuGet'] as const)
            ctx.results.notRun(k, l.s.c.name, `round ${round + 1}: ${reason}`);
          ctx.log(`  ${l.s.c.name}: NOT RUN — round ${round + 1}: ${reason}`);
          failed.add(l);
        }
      }
    }
    for (const l of live.filter((x) => !failed.has(x))) {
      for (const k of l.kinds) {
        const sum = sums.get(k)!;
        k.usedUs += sum.us;
        k.requests += sum.requests;
        k.perRound.push(sum.us / sum.requests);
      }
    }
  }
  for (const l of live.filter((x) => !failed.has(x))) {
    for (const k of l.kinds) {
      const note = k.perRound.length > 1 ? `rounds: ${k.perRound.map((x) => Math.round(x)).join(', ')} µs` : undefined;
      ctx.results.set(k.metric, l.s.c.name, k.usedUs / k.requests, note, k.perRound);
    }
    const per = l.kinds.map((k) => {
      const method = k.metric === 'cpuCall' ? 'tools/call' : 'tasks/get';
      return `${Math.round(k.usedUs / k.requests)} µs CPU per ${method}`;
    });
    ctx.log(`  ${l.s.c.name}: ${per.join(', ')}`);
    await cancelAll(l.s.run, l.ids, l.s.c.token).catch(() => undefined);
  }
}

/** Measured requests of one slice. */
const sliceOf = (ctx: Ctx) => Math.max(1, Math.ceil(ctx.plan.cpuRequests / SLICES));

function load(s: Started & { ok: true }, k: Kind, maxRequests: number, durationMs: number) {
  return runLoad({
    client: s.run.client,
    concurrency: IN_FLIGHT,
    warmupMs: 0,
    durationMs,
    maxRequests,
    next: () => k.next(),
    ok: (r) => r.status === 200 && r.body.includes(k.expect),
  });
}
