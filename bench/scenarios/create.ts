import type { Started } from '../contestants/lineup.js';
import { runLoad, type LoadResult } from '../load/closed-loop.js';
import { TASKS_CAPS, toolCall, type RpcRequest } from '../load/rpc.js';
import { median } from '../load/stats.js';
import { stealSince } from '../support/host-steal.js';
import { ownerTokens } from '../support/tokens.js';
import type { Ctx } from './context.js';

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
 * `w`'s token, `sub` bench-owner-w), so no two creates wait on the same owner's cap. The contestants go in
 * interleaved rounds (A B, A B, …), as the head-to-head throughput: one window each read 0.35× one run and
 * 0.54× the next on the same code.
 */
export async function measureCreateOwners(ctx: Ctx, contestants: Started[]): Promise<void> {
  const keys = ['createOwnersRps', 'createOwnersP99'] as const;
  const { plan } = ctx;
  const live: Array<{ s: Started & { ok: true }; reqs: RpcRequest[]; runs: LoadResult[] }> = [];
  for (const s of contestants) {
    if (!s.ok) for (const k of keys) ctx.results.notRun(k, s.c.name, s.reason);
    else
      live.push({
        s,
        runs: [],
        reqs: ownerTokens(s.run.port, plan.createClients).map((token) =>
          toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token }),
        ),
      });
  }
  const failed = new Set<string>();
  for (let round = 0; round < plan.rounds; round++) {
    for (const l of live) {
      if (failed.has(l.s.c.name)) continue;
      const r = await runLoad({
        client: l.s.run.client,
        concurrency: plan.createClients,
        warmupMs: round === 0 ? plan.warmupMs : Math.min(plan.warmupMs, 300),
        durationMs: plan.durationMs,
        maxRequests: plan.maxRequests,
        next: (w) => l.reqs[w % l.reqs.length],
        ok: (reply) => reply.status === 200 && reply.body.includes('"resultType":"task"'),
      }).catch((err: Error) => err);
      if (r instanceof Error || r.requests === r.errors) {
        const reason = r instanceof Error ? r.message : (r.firstError ?? 'no task created');
        for (const k of keys) ctx.results.notRun(k, l.s.c.name, reason);
        failed.add(l.s.c.name);
      } else l.runs.push(r);
    }
  }
  for (const l of live.filter((x) => !failed.has(x.s.c.name))) {
    const who = l.s.c.name;
    const errors = l.runs.reduce((n, r) => n + r.errors, 0);
    const requests = l.runs.reduce((n, r) => n + r.requests, 0);
    const firstError = l.runs.find((r) => r.firstError)?.firstError;
    const note = [
      l.runs.length > 1
        ? `median of ${l.runs.length} rounds: ${l.runs.map((r) => Math.round(r.rps)).join(', ')} tasks/s`
        : '',
      errors ? `${errors} of ${requests} not a CreateTaskResult (first: ${firstError})` : '',
    ]
      .filter(Boolean)
      .join('; ');
    const rps = median(l.runs.map((r) => r.rps));
    ctx.results.set('createOwnersRps', who, rps, note || undefined);
    ctx.results.set('createOwnersP99', who, median(l.runs.map((r) => r.latency.p99)));
    const figure = `${rps.toFixed(0)} tasks/s${note ? ` (${note})` : ''}`;
    ctx.log(`  ${who} create, ${plan.createClients} clients, as many owners: ${figure}`);
  }
}
