import type { Started } from '../contestants/lineup.js';
import type { Running } from '../contestants/process.js';
import { runLoad, type LoadResult } from '../load/closed-loop.js';
import { call, rpcRequest, taskGet, toolCall, type RpcRequest } from '../load/rpc.js';
import { median } from '../load/stats.js';
import type { MetricKey } from '../report/metrics.js';
import type { Ctx } from './context.js';
import { cancelAll, startLongTasks } from './live-tasks.js';

/** The demo's gateway serves its upstream's tools under this prefix (src/demo-upstream.ts). */
const PREFIX = 'upstream_';
/** Rounds at most, each window half the plan's: these figures are reported, not judged (the phase takes ~40 s). */
const ROUNDS = 2;

type Keys = Record<'one' | 'rps' | 'p50' | 'p99' | 'cpu' | 'both', MetricKey>;
const CALL: Keys = {
  one: 'callP50One',
  rps: 'callRps',
  p50: 'callP50',
  p99: 'callP99',
  cpu: 'callCpu',
  both: 'callCpuBoth',
};
const GET: Keys = { one: 'getP50One', rps: 'getRps', p50: 'getP50', p99: 'getP99', cpu: 'getCpu', both: 'getCpuBoth' };

/** One side of the comparison: where requests go, whose CPU is "its own", whose is "both" with it. */
interface Side {
  s: Started & { ok: true };
  /** The processes whose CPU is summed as "both": the upstream and the process called (the gateway, directly). */
  pair: [Running, Running];
  reqs: RpcRequest[];
  one: LoadResult[];
  many: LoadResult[];
  /** CPU seconds over the measured 16-in-flight runs: the side's own process, and both processes. */
  own: number;
  both: number;
}

/**
 * A synchronous tools/call (`greet`) and a tasks/get sent to the upstream directly and to a gateway in front of it
 * (`upstream_greet`; the gateway's local task mirroring an upstream `slow_compute` task — the gateway answers
 * tasks/get from its own store, it does not ask the upstream). Both processes are up throughout; the two sides are
 * measured in interleaved rounds, at 1 client (latency a hop adds) and at the plan's concurrency (throughput, CPU).
 * CPU: each process's /proc counters over the measured phase; "both" adds the other process (idle, or following its
 * mirrors) so the sum is comparable between the sides. `relay`, the gateway's limit (a bare node:http relay), takes
 * the tools/call rounds too, so the gateway's figures can be read against what any relay costs here.
 */
export async function measureGateway(ctx: Ctx, upstream: Started, gateway: Started, relay?: Started): Promise<void> {
  const down = [upstream, gateway].find((s): s is Started & { ok: false } => !s.ok);
  if (down) return notRun(ctx, [upstream.c.name, gateway.c.name], down.reason);
  const up = upstream as Started & { ok: true };
  const gw = gateway as Started & { ok: true };
  const relays = relay?.ok ? [relay] : [];
  if (relay && !relay.ok) notRun(ctx, [relay.c.name], relay.reason, false, [CALL]);
  const n = ctx.plan.concurrency;
  let ids: string[][] = [];
  try {
    await waitForTool(gw.run, `${PREFIX}greet`, 60_000);
    ids = [await startLongTasks(up.run, n), await startLongTasks(gw.run, n, undefined, `${PREFIX}slow_compute`)];
    const workloads = [
      {
        keys: CALL,
        expect: 'Hello, bench!',
        targets: [up, gw, ...relays],
        reqs: ['greet', `${PREFIX}greet`, `${PREFIX}greet`].map((t) => [toolCall(t, { name: 'bench' })]),
      },
      {
        keys: GET,
        expect: '"status":"working"',
        targets: [up, gw],
        reqs: ids.map((list) => list.map((id) => taskGet(id))),
      },
    ];
    for (const w of workloads) {
      const sides: Side[] = w.targets.map((s, i) => {
        const pair: [Running, Running] = [up.run, s === up ? gw.run : s.run];
        return { s, pair, reqs: w.reqs[i], one: [], many: [], own: 0, both: 0 };
      });
      for (let round = 0; round < Math.min(ctx.plan.rounds, ROUNDS); round++)
        for (const side of sides) {
          side.one.push((await measure(ctx, side, 1, round, w.expect)).r);
          const { r, cpu } = await measure(ctx, side, n, round, w.expect);
          side.many.push(r);
          side.own += side.s === up ? cpu[0] : cpu[1];
          side.both += cpu[0] + cpu[1];
        }
      for (const side of sides) record(ctx, w.keys, side);
    }
  } catch (err) {
    notRun(ctx, [up.c.name, gw.c.name], (err as Error).message, true);
    notRun(
      ctx,
      relays.map((r) => r.c.name),
      (err as Error).message,
      true,
      [CALL],
    );
  } finally {
    await cancelAll(up.run, ids[0] ?? []).catch(() => undefined);
    await cancelAll(gw.run, ids[1] ?? []).catch(() => undefined);
  }
}

/** One measured run (after a warm-up: longer in the first round); CPU seconds of the side's pair over it. */
async function measure(ctx: Ctx, side: Side, clients: number, round: number, expect: string) {
  const [up, gw] = side.pair;
  const spec = {
    client: side.s.run.client,
    concurrency: clients,
    maxRequests: ctx.plan.maxRequests,
    next: (w: number, i: number) => side.reqs[(w + i) % side.reqs.length],
    ok: (reply: { status: number; body: string }) => reply.status === 200 && reply.body.includes(expect),
  };
  const warmupMs = round === 0 ? ctx.plan.warmupMs : Math.min(ctx.plan.warmupMs, 300);
  await runLoad({ ...spec, warmupMs: 0, durationMs: warmupMs });
  const before = [up.cpuSeconds(), gw.cpuSeconds()];
  const r = await runLoad({ ...spec, warmupMs: 0, durationMs: ctx.plan.durationMs / 2 });
  const cpu = [up.cpuSeconds() - before[0], gw.cpuSeconds() - before[1]];
  return { r, cpu };
}

function record(ctx: Ctx, k: Keys, side: Side): void {
  const who = side.s.c.name;
  const runs = [...side.one, ...side.many];
  const errors = runs.reduce((n, r) => n + r.errors, 0);
  const ok = side.many.reduce((n, r) => n + r.requests - r.errors, 0);
  const firstError = runs.find((r) => r.firstError)?.firstError;
  if (!ok) return notRun(ctx, [who], firstError ?? 'no successful answer');
  const notes = [
    `median of ${side.many.length} rounds: ${side.many.map((r) => Math.round(r.rps)).join(', ')} req/s`,
    errors ? `${errors} errors (first: ${firstError})` : '',
  ].filter(Boolean);
  ctx.results.set(k.one, who, median(side.one.map((r) => r.latency.p50)));
  ctx.results.set(k.rps, who, median(side.many.map((r) => r.rps)), notes.join('; '));
  ctx.results.set(k.p50, who, median(side.many.map((r) => r.latency.p50)));
  ctx.results.set(k.p99, who, median(side.many.map((r) => r.latency.p99)));
  ctx.results.set(k.cpu, who, (side.own * 1e6) / ok);
  ctx.results.set(k.both, who, (side.both * 1e6) / ok);
  const v = (key: MetricKey) => ctx.results.value(key, who)?.toFixed(2);
  ctx.log(
    `  ${who} ${k.rps}: p50 ${v(k.one)} ms at 1 client, ${Math.round(ctx.results.value(k.rps, who) ?? 0)} req/s and` +
      ` p50 ${v(k.p50)} ms at ${ctx.plan.concurrency}; ${Math.round((side.own * 1e6) / ok)} µs CPU/req own,` +
      ` ${Math.round((side.both * 1e6) / ok)} µs both processes${errors ? ` (${notes[1]})` : ''}`,
  );
}

/** The gateway lists an upstream's tools once it has connected (retried with backoff): wait for that. */
async function waitForTool(run: Running, name: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const r = await call<{ tools: Array<{ name: string }> }>(run.client, rpcRequest('tools/list', {}));
    if (r.tools.some((t) => t.name === name)) return;
    if (Date.now() > deadline) throw new Error(`the gateway did not list ${name} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function notRun(ctx: Ctx, who: string[], reason: string, keepMeasured = false, keys = [CALL, GET]): void {
  for (const k of keys)
    for (const key of Object.values(k))
      for (const w of who) if (!keepMeasured || !ctx.results.get(key, w)) ctx.results.notRun(key, w, reason);
}
