// node dist/bench/gateway-compare.js [--rounds=3] [--seconds=3] [--before=<root of another built checkout>] [--probe]
// [--profile] (a V8 CPU profile of every process, in bench/.work/gateway-compare/profiles/<id>)
// One upstream (this checkout's fixture app) with a gateway of this checkout in front of it and, with --before, a
// gateway of that checkout too; 16 mirrored tasks each, as the bench's gateway phase; and the gateway's limit, a
// bare node:http relay (contestants/limit-proxy.ts). Interleaved rounds of a sync tools/call at 16 in flight and at
// 1 client: directly, through each, and directly at the pace the 1-client run through this gateway managed (is the
// upstream's CPU per call via a gateway the request, or the call rate?). --probe: each process's own view of the
// calls of each run (contestants/call-probe.ts: time served, time waiting upstream, sockets, event-loop delay).
// For before/after figures side by side (bench/results/2026-11-30-profiles.md, issue 41); not part of `npm run bench`.
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, type Started } from './contestants/lineup.js';
import type { ProcessSpec, Running } from './contestants/process.js';
import { limitProxy, onMemory, type Contestant } from './contestants/registry.js';
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
const o = { root, workDir: join(root, 'bench', '.work', 'gateway-compare'), profile: args.includes('--profile') };
const probeDir = args.includes('--probe') ? join(o.workDir, 'probe') : undefined;
if (probeDir) mkdirSync(probeDir, { recursive: true });
/** With --probe, every process started with the probe preloaded (each checkout's own build of it is not needed). */
const probed = <T extends { spec: ProcessSpec }>(c: T): T =>
  probeDir
    ? {
        ...c,
        spec: {
          ...c.spec,
          nodeArgs: [...(c.spec.nodeArgs ?? []), '--import', resolve(root, 'dist/bench/contestants/call-probe.js')],
          env: { ...c.spec.env, BENCH_PROBE: probeDir },
        },
      }
    : c;
const log = (line: string) => console.log(line);

const running = (s: Started): Running => {
  if (!s.ok) throw new Error(`${s.c.name}: ${s.reason}`);
  return s.run;
};
const upstream = await launch(probed(onMemory('upstream', 'gc-up')), o, log);
const up = running(upstream);
const env = { MCP_UPSTREAM_URL: `http://127.0.0.1:${up.port}/mcp` };
const after = onMemory('after', 'gc-after', env);
const script = before && resolve(before, 'dist/bench/fixture-app/main.js');
const sides: Contestant[] = [
  after,
  ...(script ? [{ ...after, name: 'before', spec: { ...after.spec, id: 'gc-before', script } }] : []),
];
sides.push(limitProxy('limit proxy', 'gc-proxy', env));
const gateways = await Promise.all(sides.map((c) => launch(probed(c), o, log)));
const ids = new Map<Running, string[]>([[up, await startLongTasks(up, 16)]]);
for (const gw of gateways.slice(0, -1).map(running)) {
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
  /** CPU µs per call of the load generator (this process), and of the whole path: it, the process called, upstream. */
  gen: number;
  path: number;
  /** Cores the path had: its CPU per call × calls a second. */
  cores: number;
}
const rows = new Map<string, Row[]>();
const greet = toolCall('greet', { name: 'bench' });
const proxied = toolCall('upstream_greet', { name: 'bench' });

/** One measured run (after a short warm-up); `paceMs`: one client sending every that many ms. */
async function measure(name: string, target: Running, req: RpcRequest, clients: number, paceMs?: number) {
  const spec = { client: target.client, concurrency: clients, maxRequests: 5_000_000, next: () => req };
  const ok = (r: { status: number; body: string }) => r.status === 200 && r.body.includes('Hello, bench!');
  await runLoad({ ...spec, ok, warmupMs: 0, durationMs: 300 });
  const watched = [...new Set([target, up])];
  await probe(watched);
  const cpu0 = [target.cpuSeconds(), up.cpuSeconds()];
  let row: { rate: number; p50: number; n: number; gen: number };
  if (paceMs === undefined) {
    const r = await runLoad({ ...spec, ok, warmupMs: 0, durationMs: ms });
    const n = r.requests - r.errors;
    row = { rate: r.rps, p50: r.latency.p50, n, gen: (r.clientCpu * r.seconds * 1e6) / n };
  } else row = { ...(await paced(target, req, paceMs)), gen: NaN };
  const [own, theirs] = [target.cpuSeconds() - cpu0[0], up.cpuSeconds() - cpu0[1]];
  const x = { rate: row.rate, p50: row.p50, own: (own * 1e6) / row.n, up: (theirs * 1e6) / row.n, gen: row.gen };
  const path = x.gen + x.own + (target === up ? 0 : x.up);
  rows.set(name, [...(rows.get(name) ?? []), { ...x, path, cores: (path * x.rate) / 1e6 }]);
  const cpu = `own ${Math.round(x.own)} µs, upstream ${Math.round(x.up)} µs, load generator ${Math.round(x.gen)} µs`;
  log(`  ${name.padEnd(28)} ${Math.round(x.rate)} req/s, p50 ${x.p50.toFixed(2)} ms, ${cpu}`);
  for (const [i, f] of (await probe(watched)).entries()) if (f) log(`    ${i ? 'upstream' : 'it'}: ${f}`);
  return x;
}

/** --probe: each process's figures since the last call (SIGWINCH; written to `<probeDir>/<pid>.json`). */
async function probe(list: Running[]): Promise<Array<string | undefined>> {
  if (!probeDir) return [];
  for (const run of list) process.kill(run.pid, 'SIGWINCH');
  await new Promise((r) => setTimeout(r, 100));
  return list.map((run) => {
    try {
      const f = JSON.parse(readFileSync(join(probeDir, `${run.pid}.json`), 'utf8'));
      const sent = f.sent.n
        ? `, sent p50 ${f.sent.p50} ms (socket wait p50 ${f.socketWait.p50}, max ${f.socketWait.max}; ` +
          `${f.socketsUsed} sockets, ${f.newSockets} new, ${f.queuedMax} queued at most; ` +
          `in → sent ${f.before} ms, answer → out ${f.after} ms)`
        : '';
      const cpu = `${Math.round(f.user)} + ${Math.round(f.system)} µs user + system a call`;
      const loop = `loop delay p50 ${f.loopDelay.p50.toFixed(2)} p99 ${f.loopDelay.p99.toFixed(2)} ms`;
      return `served p50 ${f.served.p50} ms (n ${f.served.n})${sent}; ${loop}; ${f.core.toFixed(2)} core, ${cpu}`;
    } catch {
      return undefined;
    }
  });
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
log(`\nmedians of ${rounds} rounds; gateway CPU ÷ the upstream's own (direct), p50 added, upstream CPU ÷ direct;`);
log('CPU of the whole path a call (load generator + gateway + upstream) and the cores it had (path × rate)');
for (const clients of [16, 1]) {
  const d = `direct, ${clients} in flight`;
  const whole = (name: string) => `path ${Math.round(med(name, 'path'))} µs, ${med(name, 'cores').toFixed(2)} cores`;
  log(`  ${d.padEnd(26)} ${Math.round(med(d, 'own'))} µs, p50 ${med(d, 'p50').toFixed(2)} ms; ${whole(d)}`);
  for (const side of sides) {
    const g = `${side.name}, ${clients} in flight`;
    const ratio = (med(g, 'own') / med(d, 'own')).toFixed(2);
    const added = (med(g, 'p50') - med(d, 'p50')).toFixed(2);
    const theirs = (med(g, 'up') / med(d, 'own')).toFixed(2);
    const at = `${Math.round(med(g, 'own'))} µs: ${ratio}×, +${added} ms, upstream ${theirs}×`;
    log(`  ${g.padEnd(26)} ${at}; ${whole(g)}`);
  }
}
const pace = 'direct, at that pace';
log(`  ${pace.padEnd(24)} upstream ${Math.round(med(pace, 'own'))} µs a call (${Math.round(med(pace, 'rate'))}/s)`);
