import type { Started } from '../contestants/lineup.js';
import { runLoad } from '../load/closed-loop.js';
import { TASKS_CAPS, toolCall } from '../load/rpc.js';
import { median } from '../load/stats.js';
import { stealSince } from '../support/host-steal.js';
import { ownerTokens } from '../support/tokens.js';
import type { Ctx } from './context.js';
import type { Workload } from './throughput.js';

/**
 * tools/call of `slow_compute {seconds: 0}` declaring the tasks extension: the answer is a
 * CreateTaskResult, sent once the store holds the task; the tool then finishes at once (one more
 * store write), as a short real task would. One client for latency, then many for throughput.
 */
export async function measureCreate(ctx: Ctx, s: Started): Promise<void> {
  const who = s.c.name;
  if (!s.ok) {
    for (const k of ['create1P50', 'create1P99', 'create50Rps', 'create50P99', 'create50Cpu'] as const)
      ctx.results.notRun(k, who, s.reason);
    return;
  }
  const req = toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token: s.c.token });
  const { plan } = ctx;
  const base = {
    client: s.run.client,
    warmupMs: plan.warmupMs,
    durationMs: plan.durationMs,
    maxRequests: plan.maxRequests,
    next: () => req,
  };
  const ok = (reply: { status: number; body: string }) =>
    reply.status === 200 && reply.body.includes('"resultType":"task"');
  try {
    // One client's p99 is its few slowest answers in a window: measured in rounds (median), like the throughput.
    const ones = [];
    const steal = stealSince();
    for (let round = 0; round < plan.rounds; round++)
      ones.push(await runLoad({ ...base, concurrency: 1, ok, warmupMs: round ? 300 : plan.warmupMs }));
    const requests = ones.reduce((n, r) => n + r.requests, 0);
    const errors = ones.reduce((n, r) => n + r.errors, 0);
    const firstError = ones.find((r) => r.firstError)?.firstError;
    if (requests === errors) throw new Error(firstError ?? 'no task created');
    const p99s = ones.map((r) => r.latency.p99.toFixed(2)).join(', ');
    const stolen = steal();
    const note = [
      ones.length > 1 ? `median of ${ones.length} rounds: p99 ${p99s} ms` : '',
      stolen === undefined ? '' : `CPU time taken by the host meanwhile: ${stolen.toFixed(1)} %`,
      errors ? `${errors} of ${requests} not a CreateTaskResult (first: ${firstError})` : '',
    ]
      .filter(Boolean)
      .join('; ');
    const p50 = median(ones.map((r) => r.latency.p50));
    const p99 = median(ones.map((r) => r.latency.p99));
    ctx.results.set('create1P50', who, p50, note || undefined);
    ctx.results.set('create1P99', who, p99, note || undefined);
    ctx.log(`  ${who} create, 1 client: p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(2)} ms${note ? ` (${note})` : ''}`);
    const many = await runLoad({ ...base, concurrency: plan.createClients, ok, serverCpu: () => s.run.cpuSeconds() });
    if (many.requests === many.errors) throw new Error(many.firstError ?? 'no task created');
    const manyNote = many.errors
      ? `${many.errors} of ${many.requests} not a CreateTaskResult (first: ${many.firstError})`
      : undefined;
    ctx.results.set('create50Rps', who, many.rps, manyNote);
    ctx.results.set('create50P99', who, many.latency.p99);
    const ok50 = many.requests - many.errors;
    if (many.serverCpuSeconds !== undefined && ok50)
      ctx.results.set('create50Cpu', who, (many.serverCpuSeconds * 1e6) / ok50);
    const manyFigures = `${many.rps.toFixed(0)} tasks/s, p99 ${many.latency.p99.toFixed(2)} ms`;
    ctx.log(`  ${who} create, ${plan.createClients} clients: ${manyFigures}${manyNote ? `, ${manyNote}` : ''}`);
  } catch (err) {
    for (const k of ['create1P50', 'create1P99', 'create50Rps', 'create50P99', 'create50Cpu'] as const) {
      if (!ctx.results.get(k, who)) ctx.results.notRun(k, who, (err as Error).message);
    }
  }
}

/**
 * Task creation at the plan's many clients, each under an owner of its own (auth on: client `w` sends owner
 * `w`'s token, `sub` bench-owner-w), so no two creates wait on the same owner's cap. Run by `headToHead`, in
 * interleaved rounds: one window each read 0.35× one run and 0.54× the next on the same code.
 */
export const CREATE_OWNERS: Workload = {
  keys: { rps: 'createOwnersRps', p99: 'createOwnersP99' },
  clients: (plan) => plan.createClients,
  async prepare(s, n) {
    const reqs = ownerTokens(s.run.port, n).map((token) =>
      toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token }),
    );
    return { next: (w) => reqs[w % reqs.length], expect: '"resultType":"task"' };
  },
};
