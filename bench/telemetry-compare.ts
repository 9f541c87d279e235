// node dist/bench/telemetry-compare.js [--rounds=8] [--before=<root of another built checkout>] NAME[=ENV:V,ENV:V] …
// CPU per sync tools/call and per tasks/get (scenarios/cpu-cost.ts: interleaved slices, median of per-round ratios),
// of telemetry off and of each NAME, in one run: e.g. `b/sdk=MCP_BENCH_OTEL:sdk sdk=MCP_BENCH_OTEL:sdk` with
// --before: a name starting `b/` runs that checkout's fixture app (its own library build), the others this one's;
// one starting `f/` runs the floor (contestants/otel-floor-server.ts: the same spans in a bare node:http server),
// its ratios taken to `f/off`'s rounds; with a `b/off=MCP_TELEMETRY:0`, the other `b/` names' are taken to its rounds.
// For before/after figures side by side (bench/results/2026-11-30-profiles.md, issue 41); not part of `npm run bench`.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planFor } from './config.js';
import { launch } from './contestants/lineup.js';
import { onMemory, type Contestant } from './contestants/registry.js';
import type { MetricKey } from './report/metrics.js';
import type { Results } from './report/results.js';
import { measureCpuCost } from './scenarios/cpu-cost.js';
import type { Ctx } from './scenarios/context.js';

const args = process.argv.slice(2);
const opt = (name: string) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const before = opt('before');
const FLOOR = 'dist/bench/contestants/otel-floor-server.js';

const variant = (spec: string, i: number): Contestant => {
  const [name, envs = ''] = spec.split('=');
  const env = Object.fromEntries(
    envs
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split(':') as [string, string]),
  );
  if (name.startsWith('f/')) return { name, spec: { id: `v${i}`, script: FLOOR, env } };
  const c = onMemory(name, `v${i}`, env);
  if (!name.startsWith('b/')) return c;
  if (!before) throw new Error(`${name}: needs --before=<root>`);
  return { ...c, spec: { ...c.spec, script: resolve(before, 'dist/bench/fixture-app/main.js') } };
};
const contestants = [
  onMemory('off', 'off', { MCP_TELEMETRY: '0' }),
  ...args.filter((a) => !a.startsWith('--')).map(variant),
];

const rounds = new Map<MetricKey, Map<string, number[]>>();
const results = {
  set(metric: MetricKey, name: string, _value: number, _note?: string, perRound: number[] = []) {
    rounds.set(metric, (rounds.get(metric) ?? new Map<string, number[]>()).set(name, perRound));
  },
  notRun: (metric: MetricKey, name: string, reason: string) => console.log(`${metric} ${name}: not run — ${reason}`),
} as unknown as Results;
const ctx: Ctx = {
  plan: { ...planFor(false), cpuRounds: Number(opt('rounds') ?? 8) },
  o: { root, workDir: join(root, 'bench', '.work', 'telemetry-compare'), profile: false },
  results,
  log: (line) => console.log(line),
  postgres: () => Promise.reject(new Error('not used')),
};
const started = await Promise.all(contestants.map((c) => launch(c, ctx.o, ctx.log)));
try {
  await measureCpuCost(ctx, started);
} finally {
  for (const s of started) if (s.ok) await s.run.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [metric, byName] of rounds) {
  console.log(`\n${metric === 'cpuCall' ? 'tools/call' : 'tasks/get'}: median of per-round ratios to off, median µs`);
  for (const [name, r] of byName) {
    // The floor's variants against the floor without telemetry (`f/off`), the module's against `off`; the other
    // checkout's against its own `b/off` when it runs one (`b/off` itself against `off`: off's CPU before ÷ after).
    const ownOff = name.startsWith('b/') && name !== 'b/off' && byName.has('b/off');
    const off = byName.get(name.startsWith('f/') ? 'f/off' : ownOff ? 'b/off' : 'off') ?? [];
    const ratios = r.map((x, i) => x / off[i]);
    const each = ratios.map((x) => x.toFixed(2)).join(' ');
    console.log(`  ${name.padEnd(16)} ${median(ratios).toFixed(2)}×  ${Math.round(median(r))} µs  (rounds: ${each})`);
  }
}
