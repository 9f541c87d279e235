// node dist/bench/pair-compare.js <get|create> [--store=postgres|memory] [--rounds=6] [--warm-rounds=1]
//   [--seconds=3] [--clients=N] (in flight in all; default 16 for get, 50 for create) [--modes=one,two,half]
//   [--pin] (A's threads on CPU 0, B's on CPU 1; the load generator and PostgreSQL where the scheduler puts them)
//   [--count-queries] (PostgreSQL: the statements each demo sends) [--perf] (`perf record` of both demos in every
//   measured window, into bench/.work/pair-<kind>-<store>/perf/<mode>-<round>.data; read with perf-split.js)
//   [--env=NAME=VALUE ...] [--node=FLAG ...] (the demos' environment and node options, e.g. --node=--perf-basic-prof)
//   [--env-a=NAME=VALUE ...] [--env-b=NAME=VALUE ...] (one demo's only: with --modes=one,b, two builds of a setting
//   side by side, `b` ÷ `one` per round)
// Two demos A and B (on one PostgreSQL database, or each on its memory store) and three ways to carry one load:
// `one` A alone with all the clients, `two` A and B with half each at once, `half` A alone with half. Interleaved
// rounds (one, two, half, one, …) after `--warm-rounds` unmeasured ones, so a busy spell of the machine falls on
// each. Per window: Node CPU per answer of both processes (the idle one's included), of which kernel and worker
// threads (V8's concurrent JIT and GC); wake-ups, preemptions, and time spent runnable but off a core per answer;
// PostgreSQL's and this load generator's CPU per answer. Then the medians of each mode's per-round ratio to `one`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';
import { launch, type Started } from './contestants/lineup.js';
import { onMemory, onPostgres, type Contestant } from './contestants/registry.js';
import { runLoad } from './load/closed-loop.js';
import { TASKS_CAPS, taskGet, toolCall, type RpcRequest } from './load/rpc.js';
import { cancelAll, startLongTasks } from './scenarios/live-tasks.js';
import { stealSince } from './support/host-steal.js';
import { perfRecord } from './support/perf-record.js';
import { countersOf, postgresCpu, queryCounter, type ProcCounters } from './support/proc-counters.js';

const [kind = 'get', ...flags] = process.argv.slice(2);
const flag = (name: string) => flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1];
const many = (name: string) => flags.filter((f) => f.startsWith(`--${name}=`)).map((f) => f.slice(name.length + 3));
const store = flag('store') ?? 'postgres';
const rounds = Number(flag('rounds') ?? 6);
const warmRounds = Number(flag('warm-rounds') ?? 1);
const seconds = Number(flag('seconds') ?? 3);
const clients = Number(flag('clients') ?? (kind === 'create' ? 50 : 16));
const modes = (flag('modes') ?? 'one,two,half').split(',');
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const workDir = join(root, 'bench', '.work', `pair-${kind}-${store}`);
mkdirSync(join(workDir, 'perf'), { recursive: true });
const o = { root, workDir, profile: false };

const counter = flags.includes('--count-queries') ? queryCounter(workDir) : undefined;
const nodeArgs = [...many('node'), ...(counter?.nodeArgs ?? [])];
const envOf = (name: string) => Object.fromEntries(many(name).map((e) => e.split(/=(.*)/s).slice(0, 2)));
const env = envOf('env');
let pg: TestPostgres | undefined;
if (store === 'postgres') pg = await startPostgres();
const make = (id: string): Contestant => {
  const c = pg ? onPostgres(pg.url, id, `module/PostgreSQL ${id}`) : onMemory(`module/memory ${id}`, id);
  return {
    ...c,
    spec: {
      ...c.spec,
      env: { ...c.spec.env, ...env, ...envOf(`env-${id}`) },
      nodeArgs: [...(c.spec.nodeArgs ?? []), ...nodeArgs],
    },
  };
};
const started = await Promise.all(['a', 'b'].map((id) => launch(make(id), o, console.log)));
const both = started.map((s) => {
  if (!s.ok) throw new Error(s.reason);
  return s;
}) as Array<Started & { ok: true }>;
if (flags.includes('--pin'))
  both.forEach((s, i) => execFileSync('taskset', ['-a', '-p', '-c', `${i}`, `${s.run.pid}`]));

const ids = await Promise.all(both.map((s) => startLongTasks(s.run, clients, s.c.token)));
if (kind === 'create') await Promise.all(both.map((s, i) => cancelAll(s.run, ids[i], s.c.token)));
const request = (i: number, w: number): RpcRequest =>
  kind === 'get'
    ? taskGet(ids[i][w % clients], { token: both[i].c.token })
    : toolCall('slow_compute', { seconds: 0, label: 'bench' }, { caps: TASKS_CAPS, token: both[i].c.token });
const expect = kind === 'get' ? '"status":"working"' : '"resultType":"task"';
const half = Math.round(clients / 2);
const split: Record<string, Array<[instance: number, clients: number]>> = {
  one: [[0, clients]],
  two: [
    [0, half],
    [1, half],
  ],
  half: [[0, half]],
  b: [[1, clients]],
};

type Row = { mode: string; round: number; nodeUs: number; line: string };
const rows: Row[] = [];
for (let round = -warmRounds; round < rounds; round++) {
  // Unmeasured rounds also give B the whole load alone: it serves only in `two` otherwise, and V8 goes on optimizing
  // its code for thousands of requests (creates: 20 000 and more), which a measured `two` would carry.
  for (const mode of round < 0 && !modes.includes('b') ? ['b', ...modes] : modes) {
    const pids = both.map((s) => s.run.pid);
    const before = pids.map(countersOf);
    const pg0 = pg ? postgresCpu(new URL(pg.url).port) : 0;
    const q0 = pids.map((pid) => counter?.queriesOf(pid) ?? 0);
    const perf = flags.includes('--perf') && round >= 0;
    const stop = perf ? await perfRecord(pids, join(workDir, 'perf', `${mode}-${round}.data`)) : undefined;
    const gen0 = process.cpuUsage();
    const steal = stealSince();
    const results = await Promise.all(
      split[mode].map(([i, n]) =>
        runLoad({
          client: both[i].run.client,
          concurrency: n,
          warmupMs: 0,
          durationMs: seconds * 1000,
          maxRequests: 5_000_000,
          next: (w) => request(i, w),
          ok: (r) => r.status === 200 && r.body.includes(expect),
        }),
      ),
    );
    const after = pids.map(countersOf);
    const gen = process.cpuUsage(gen0);
    const pg1 = pg ? postgresCpu(new URL(pg.url).port) : 0;
    await stop?.();
    if (counter) await new Promise((r) => setTimeout(r, 300)); // the preload writes its count every 200 ms
    const q1 = pids.map((pid) => counter?.queriesOf(pid) ?? 0);
    if (round < 0) continue;
    const answers = results.map((r) => r.requests - r.errors);
    const ok = answers.reduce((n, x) => n + x, 0);
    const us = (s: number) => Math.round((s * 1e6) / ok);
    const d = (k: keyof ProcCounters) => before.map((b, i) => after[i][k] - b[k]);
    const [cpu, sys, workers, wakes, preempted, waitNs] = (
      ['cpu', 'sys', 'workers', 'wakes', 'preempted', 'waitNs'] as const
    ).map(d);
    const sum = (xs: number[]) => xs[0] + xs[1];
    const nodeUs = us(sum(cpu));
    const line =
      `${Math.round(results.reduce((n, r) => n + r.rps, 0))} req/s (${answers.join(' + ')} answers, p50 ` +
      `${Math.max(...results.map((r) => r.latency.p50)).toFixed(2)} ms, p99 ` +
      `${Math.max(...results.map((r) => r.latency.p99)).toFixed(2)} ms); ` +
      `Node µs/answer ${nodeUs} (A ${us(cpu[0])}, B ${us(cpu[1])}; kernel ${us(sum(sys))}, ` +
      `worker threads ${us(sum(workers))}); per answer: wake-ups ${(sum(wakes) / ok).toFixed(2)}, ` +
      `preemptions ${(sum(preempted) / ok).toFixed(2)}, runnable off a core ${us(sum(waitNs) / 1e9)} µs; ` +
      (pg ? `PostgreSQL µs/answer ${us(pg1 - pg0)}; ` : '') +
      (counter ? `statements/answer ${(sum(q1.map((q, i) => q - q0[i])) / ok).toFixed(3)}; ` : '') +
      `load generator µs/answer ${us((gen.user + gen.system) / 1e6)}; steal ${steal()?.toFixed(1) ?? '?'} %` +
      (results.some((r) => r.errors) ? `; ${results.reduce((n, r) => n + r.errors, 0)} errors` : '');
    rows.push({ mode, round, nodeUs, line });
    if (perf) writeFileSync(join(workDir, 'perf', `${mode}-${round}.answers`), String(ok));
    console.log(`${round} ${mode.padEnd(4)} ${line}`);
  }
}

/** The middle figure, or the mean of the two middle ones. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

console.log(`\n${kind} on ${store}, ${clients} in flight in all, ${rounds} rounds of ${seconds} s`);
const ofOne = new Map(rows.filter((r) => r.mode === 'one').map((r) => [r.round, r.nodeUs]));
for (const mode of modes) {
  const mine = rows.filter((r) => r.mode === mode);
  const ratios = mine.map((r) => r.nodeUs / (ofOne.get(r.round) ?? NaN)).filter(Number.isFinite);
  const ratio = ratios.length ? `, ÷ one per round: median ${median(ratios).toFixed(2)}×` : '';
  console.log(`${mode.padEnd(4)} Node µs/answer: median ${median(mine.map((r) => r.nodeUs))}${ratio}`);
}
for (const s of both) await s.run.stop();
await pg?.stop();
