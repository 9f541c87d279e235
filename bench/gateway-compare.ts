// node dist/bench/gateway-compare.js [--rounds=3] [--seconds=3] [--before=<root of another built checkout>]
// One upstream (this checkout's fixture app) with a gateway of this checkout in front of it and, with --before, a
// gateway of that checkout too; 16 mirrored tasks each, as the bench's gateway phase. Interleaved rounds of a sync
// tools/call at 16 in flight and at 1 client: directly, through each gateway, and directly at the pace the 1-client
// run through this gateway managed (is the upstream's CPU per call via a gateway the request, or the call rate?).
// For before/after figures side by side (bench/results/2026-11-30-profiles.md, issue 41); not part of `npm run bench`.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, type Started } from './contestants/lineup.js';
import type { Running } from './contestants/process.js';
import { onMemory } from './contestants/registry.js';
import { runLoad } from './load/closed-loop.js';
import { call, rpcRequest, toolCall, type RpcRequest } from './load/rpc.js';
import { median } from './load/stats.js';
import { cancelAll, startLongTasks } from './scenarios/live-tasks.js';

const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const before = opt('before');
const rounds = Number(opt('rounds') ?? 3);
const ms = Number(opt('seconds') ?? 3) * 1000;
const o = { root, workDir: join(root, 'bench', '.work', 'gateway-compare'), profile: false };
const log = (line: string) => console.log(line);

const running = (s: Started): Running => {
  if (!s.ok) throw new Error(`${s.c.name}: ${s.reason}`);
  return s.run;
};
const upstream = await launch(onMemory('upstream', 'gc-up'), o, log);
const up = running(upstream);
const env = { MCP_UPSTREAM_URL: `http://127.0.0.1:${up.port}/mcp` };
const after = onMemory('after', 'gc-after', env);
const script = before && resolve(before, 'dist/bench/fixture-app/main.js');
const sides = [
  after,
  ...(script ? [{ ...after, name: 'before', spec: { ...after.spec, id: 'gc-before', script } }] : []),
];
const gateways = await Promise.all(sides.map((c) => launch(c, o, log)));
const ids = new Map<Running, string[]>([[up, await startLongTasks(up, 16)]]);
for (const gw of gateways.map(running)) {
  for (let i = 0; ; i++) {
    const list = await call<{ tools: Array<{ name: string }> }>(gw.client, rpcRequest('tools/list', {}));
    if (list.tools.some((t) => t.name === 'upstream_greet')) break;
    if (i > 300) throw new Error('the gateway did not list upstream_greet');
    await new Promise((r) => setTimeout(r, 200));
  }
  ids.set(gw, await startLongTasks(gw, 16, undefined, 'upstream_slow_compute'));
}

interface Row {
  rate: number;
  p50: number;
  /** CPU µs per call of the process called, and of the upstream. */
  own: number;
  up: number;
}
const rows = new Map<string, Row[]>();
const greet = toolCall('greet', { name: 'bench' });
const proxied = toolCall('upstream_greet', { name: 'bench' });

/** One measured run (after a short warm-up); `paceMs`: one client sending every that many ms. */
async function measure(name: string, target: Running, req: RpcRequest, clients: number, paceMs?: number) {
  const spec = { client: target.client, concurrency: clients, maxRequests: 5_000_000, next: () => req };
  const ok = (r: { status: number; body: string }) => r.status === 200 && r.body.includes('Hello, bench!');
  await runLoad({ ...spec, ok, warmupMs: 0, durationMs: 300 });
  const cpu0 = [target.cpuSeconds(), up.cpuSeconds()];
  let row: Omit<Row, 'own' | 'up'> & { n: number };
  if (paceMs === undefined) {
    const r = await runLoad({ ...spec, ok, warmupMs: 0, durationMs: ms });
    row = { rate: r.rps, p50: r.latency.p50, n: r.requests - r.errors };
  } else row = await paced(target, req, paceMs);
  const [own, theirs] = [target.cpuSeconds() - cpu0[0], up.cpuSeconds() - cpu0[1]];
  const x = { rate: row.rate, p50: row.p50, own: (own * 1e6) / row.n, up: (theirs * 1e6) / row.n };
  rows.set(name, [...(rows.get(name) ?? []), x]);
  const cpu = `own ${Math.round(x.own)} µs, upstream ${Math.round(x.up)} µs`;
  log(`  ${name.padEnd(28)} ${Math.round(x.rate)} req/s, p50 ${x.p50.toFixed(2)} ms, ${cpu}`);
  return x;
}

/** One client, a call every `paceMs` (the wait spent in the load generator, not in the upstream). */
async function paced(target: Running, req: RpcRequest, paceMs: number) {
  const start = performance.now();
  const times: number[] = [];
  for (let next = start; performance.now() - start < ms;) {
    const t = performance.now();
    await target.client.post('/mcp', req.headers, req.body);
    times.push(performance.now() - t);
    next += paceMs;
    while (performance.now() < next) await new Promise((r) => setImmediate(r));
  }
  return { rate: times.length / ((performance.now() - start) / 1000), p50: median(times), n: times.length };
}

try {
  for (let r = 0; r < rounds; r++) {
    log(`round ${r + 1} of ${rounds}`);
    for (const clients of [16, 1]) {
      await measure(`direct, ${clients} in flight`, up, greet, clients);
      for (const [i, gw] of gateways.entries()) {
        const x = await measure(`${sides[i].name}, ${clients} in flight`, running(gw), proxied, clients);
        if (clients === 1 && i === 0) await measure('direct, at that pace', up, greet, 1, 1000 / x.rate);
      }
    }
  }
} finally {
  for (const [run, list] of ids) await cancelAll(run, list).catch(() => undefined);
  for (const s of [...gateways, upstream]) if (s.ok) await s.run.stop();
}

const med = (name: string, k: keyof Row) => median((rows.get(name) ?? []).map((x) => x[k]));
log(`\nmedians of ${rounds} rounds; gateway CPU ÷ the upstream's own (direct), p50 added, upstream CPU ÷ direct`);
for (const clients of [16, 1]) {
  const d = `direct, ${clients} in flight`;
  log(`  ${d.padEnd(24)} ${Math.round(med(d, 'own'))} µs, p50 ${med(d, 'p50').toFixed(2)} ms`);
  for (const side of sides) {
    const g = `${side.name}, ${clients} in flight`;
    const ratio = (med(g, 'own') / med(d, 'own')).toFixed(2);
    const added = (med(g, 'p50') - med(d, 'p50')).toFixed(2);
    const theirs = (med(g, 'up') / med(d, 'own')).toFixed(2);
    log(`  ${g.padEnd(24)} ${Math.round(med(g, 'own'))} µs: ${ratio}×, +${added} ms, upstream ${theirs}×`);
  }
}
const pace = 'direct, at that pace';
log(`  ${pace.padEnd(24)} upstream ${Math.round(med(pace, 'own'))} µs a call (${Math.round(med(pace, 'rate'))}/s)`);
