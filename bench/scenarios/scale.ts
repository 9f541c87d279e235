import type { Started } from '../contestants/lineup.js';
import { runLoad, type LoadResult } from '../load/closed-loop.js';
import { taskGet, type RpcRequest } from '../load/rpc.js';
import { median } from '../load/stats.js';
import type { Ctx } from './context.js';
import { seed } from './seed.js';

/** The caller's own tasks among the seeded ones; tasks/get cycles over them. */
const MINE = 100;

/**
 * tasks/get latency (one client) with few and with many live tasks: two processes of the same
 * contestant, each on its own empty store, one seeded with `plan.scaleSmall` tasks and one with
 * `large` (the caller's 100, the rest 50 per other owner, like many users under the default cap),
 * then measured in interleaved rounds (A B, B A, …) so neither gains from running first or later.
 */
export async function measureScale(ctx: Ctx, small: Started, big: Started, large: number): Promise<void> {
  const who = small.c.name;
  const keys = ['smallP50', 'smallP99', 'largeP50', 'largeP99'] as const;
  const down = [small, big].find((s): s is Started & { ok: false } => !s.ok);
  if (down) return keys.forEach((k) => ctx.results.notRun(k, who, down.reason));
  try {
    const sides = [
      {
        s: small as Started & { ok: true },
        n: ctx.plan.scaleSmall,
        runs: [] as LoadResult[],
        reqs: [] as RpcRequest[],
        ms: 0,
      },
      { s: big as Started & { ok: true }, n: large, runs: [] as LoadResult[], reqs: [] as RpcRequest[], ms: 0 },
    ];
    // Both sides fill their own store at once (different processes and databases).
    await Promise.all(
      sides.map(async (side) => {
        const seeded = await seed(side.s.run, side.n, MINE, side.s.c.token);
        side.reqs = seeded.ids.map((id) => taskGet(id, { token: side.s.c.token }));
        side.ms = seeded.ms;
      }),
    );
    // Warm-up only.
    for (const side of sides)
      await oneClientReads(ctx, side.s, side.reqs, ctx.plan.warmupMs * (ctx.plan.quick ? 1 : 2), ctx.plan.scaleMs);
    // Twice the plan's rounds at half the length: a slow spell of the shared machine (a round's p50 on PostgreSQL
    // read 0.83–1.31 ms in one run) then lands on both sides, where three rounds of 3 s let one such spell
    // decide a side's median (PostgreSQL 1.49× in one full run, 0.80× and 1.14× in others).
    const rounds = Math.max(2, ctx.plan.rounds * 2);
    for (let round = 0; round < rounds; round++) {
      // A B, B A, A B, …: neither side always goes first.
      for (const side of round % 2 ? [...sides].reverse() : sides)
        side.runs.push(await oneClientReads(ctx, side.s, side.reqs, 100, ctx.plan.scaleMs / 2));
    }
    // Each round's p50 kept: the target divides them round by round, as they were measured (A B, B A, …).
    const [a, b] = sides.map((side) => {
      const p50s = side.runs.map((r) => r.latency.p50);
      return { p50s, p50: median(p50s), p99: median(side.runs.map((r) => r.latency.p99)) };
    });
    const quick = large === 100_000 ? '' : `; large = ${large.toLocaleString('en')} live tasks (quick run)`;
    const note = `median of ${rounds} interleaved rounds${quick}`;
    ctx.results.set('smallP50', who, a.p50, undefined, a.p50s);
    ctx.results.set('smallP99', who, a.p99);
    ctx.results.set('largeP50', who, b.p50, note, b.p50s);
    ctx.results.set('largeP99', who, b.p99);
    const seeding = ((sides[0].ms + sides[1].ms) / 1000).toFixed(1);
    const few = `${sides[0].n} tasks p50 ${a.p50.toFixed(3)} / p99 ${a.p99.toFixed(3)} ms`;
    const many = `${large} tasks p50 ${b.p50.toFixed(3)} / p99 ${b.p99.toFixed(3)} ms`;
    ctx.log(`  ${who}: ${few}; ${many} (seeding ${seeding} s)`);
  } catch (err) {
    keys.forEach((k) => ctx.results.get(k, who) ?? ctx.results.notRun(k, who, (err as Error).message));
  }
}

/** One client reading `reqs` in turn (each must come back a working task), until `durationMs` or `until()`. */
export async function oneClientReads(
  ctx: Ctx,
  s: Started & { ok: true },
  reqs: RpcRequest[],
  warmupMs: number,
  durationMs: number,
  until?: () => boolean,
  onSample?: (ms: number, at: number) => void,
): Promise<LoadResult> {
  const r = await runLoad({
    until,
    onSample,
    client: s.run.client,
    concurrency: 1,
    warmupMs,
    durationMs,
    maxRequests: ctx.plan.maxRequests,
    next: (_w, i) => reqs[i % reqs.length],
    ok: (reply) => reply.status === 200 && reply.body.includes('"status":"working"'),
  });
  if (r.errors) throw new Error(`tasks/get failed: ${r.firstError}`);
  return r;
}
