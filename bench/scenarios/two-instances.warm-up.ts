import type { Started } from '../contestants/lineup.js';
import { runLoad } from '../load/closed-loop.js';
import type { Plan } from '../config.js';
import type { SplitLoad } from './two-instances.js';

/** The second instance counts as warm once its CPU per answer is within this of the first's, twice in a row. */
const WARM_WITHIN = 1.15;
const TURN_MS = 1_000;

/**
 * Unmeasured turns of the whole load on each instance alone, until each answered `plan.pairWarmAnswers` and the
 * second costs no more CPU per answer than the first (within 15 %, two turns in a row), or `plan.pairWarmMs`
 * passed; says how it went. V8 goes on optimizing a process's code for thousands of requests: a second instance
 * that had served fewer than the first, measured beside it, spent a large part of the pair's CPU on its compiler
 * threads and unoptimized code (bench/results/2026-11-30-profiles.md, 4 December, two instances).
 */
export async function warmUp(plan: Plan, both: Array<Started & { ok: true }>, load: SplitLoad): Promise<string> {
  const ratios: number[] = [];
  const answered = both.map(() => 0);
  const start = performance.now();
  let inARow = 0;
  const warm = () => inARow >= 2 && answered.every((n) => n >= plan.pairWarmAnswers);
  while (!warm() && performance.now() - start < plan.pairWarmMs) {
    const cost: number[] = [];
    for (const [i, s] of both.entries()) {
      const r = await runLoad({
        client: s.run.client,
        concurrency: load.clients,
        warmupMs: 0,
        durationMs: TURN_MS,
        maxRequests: plan.maxRequests,
        next: (w) => load.next(i, w),
        ok: (reply) => reply.status === 200 && reply.body.includes(load.expect),
        serverCpu: () => s.run.cpuSeconds(),
      });
      answered[i] += r.requests - r.errors;
      cost.push((r.serverCpuSeconds ?? 0) / Math.max(1, r.requests - r.errors));
    }
    const ratio = cost[1] / Math.max(cost[0], 1e-9);
    ratios.push(ratio);
    inARow = ratio <= WARM_WITHIN ? inARow + 1 : 0;
  }
  const seconds = ((performance.now() - start) / 1000).toFixed(0);
  const turns = ratios.map((x) => x.toFixed(2)).join(', ');
  return (
    `${warm() ? 'warmed up' : 'NOT warm'} in ${seconds} s: ${answered.join(' and ')} answers alone; second ÷ first, ` +
    `CPU per answer, turn by turn: ${turns}`
  );
}
