// node dist/bench/profile-one.js <get|call|create> [--store=memory|sqlite|postgres|redis] [--auth] [--seconds=8]
//   [--top=25] [--fresh] (with --auth: a never-seen token on every request)
//   [--pool=100000] (fresh tokens signed before the run) [--clients=N] (in flight; default 1 for
//   create, 16 otherwise) [--owners=N] (auth on; worker w sends owner w % N's token, each reused)
//   [--env=NAME=VALUE ...] [--node=FLAG ...] (node options of the demo, e.g. --node=--trace-gc)
//   (demo environment, e.g. --env=MCP_FAST_PATH=0) [--no-profile] (CPU figure only)
//   [--floor] (get|call against contestants/otel-floor-server.ts instead of the demo)
// One workload against one demo process run with --cpu-prof, then where its CPU went (profile-summary).
// For chasing a hot spot the bench reported: every other load is left out of the profile.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres, type TestPostgres } from '../test/support/postgres.js';
import { startRedis, type TestRedis } from '../test/support/redis.js';
import { launch } from './contestants/lineup.js';
import { onMemory, onPostgres, onRedis, onSqlite, type Contestant } from './contestants/registry.js';
import { runLoad } from './load/closed-loop.js';
import { TASKS_CAPS, taskGet, toolCall } from './load/rpc.js';
import { startLongTasks } from './scenarios/live-tasks.js';
import { demoToken } from '../src/demo-token.js';
import { BENCH_JWT_SECRET, freshTokens, ownerTokens } from './support/tokens.js';

const [kind = 'get', ...flags] = process.argv.slice(2);
const flag = (name: string) =>
  flags.find((f) => f.startsWith(`--${name}`))?.split('=')[1] ?? (flags.includes(`--${name}`) ? '' : undefined);
const store = flag('store') ?? 'memory';
const seconds = Number(flag('seconds') ?? 8);
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const workDir = join(root, 'bench', '.work', `profile-${kind}-${store}`);
const profile = !flags.includes('--no-profile');
const o = { root, workDir, profile };
const extraEnv = Object.fromEntries(
  flags.filter((f) => f.startsWith('--env=')).map((f) => f.slice(6).split(/=(.*)/s).slice(0, 2)),
);

const FLOOR = 'dist/bench/contestants/otel-floor-server.js';
let pg: TestPostgres | undefined;
let redis: TestRedis | undefined;
let c: Contestant;
if (store === 'postgres') c = onPostgres((pg = await startPostgres()).url, 'profiled');
// As the bench runs it (bench/support/redis-server.ts): the AOF on, fsync once a second.
else if (store === 'redis')
  c = onRedis((redis = await startRedis({ appendonly: true, appendfsync: 'everysec' })).url, 'profiled');
else if (store === 'sqlite') c = onSqlite(join(workDir, 'profiled.sqlite'), 'profiled');
// The same requests to the bare node:http server of contestants/otel-floor-server.ts (with --env=MCP_BENCH_OTEL=…).
else if (flags.includes('--floor')) c = { name: 'floor', spec: { id: 'profiled', script: FLOOR } };
else c = onMemory('module/memory', 'profiled');
const nodeArgs = flags.filter((f) => f.startsWith('--node=')).map((f) => f.slice(7));
c = {
  ...c,
  spec: { ...c.spec, env: { ...c.spec.env, ...extraEnv }, nodeArgs: [...(c.spec.nodeArgs ?? []), ...nodeArgs] },
};
const owners = Number(flag('owners') ?? 0);
if (flag('auth') !== undefined || owners) {
  c = { ...c, spec: { ...c.spec, env: { ...c.spec.env, MCP_AUTH: '1' } }, auth: true };
}

// An earlier run's profile would otherwise be the one read below.
rmSync(join(workDir, 'profiles'), { recursive: true, force: true });
const s = await launch(c, o, console.log);
if (!s.ok) throw new Error(s.reason);
const ids = await startLongTasks(s.run, 16, c.token);
const fresh = flags.includes('--fresh');
const perOwner = owners ? ownerTokens(s.run.port, owners) : undefined;
let used = 0;
// Never-seen tokens are signed up front (signing while sending made the load generator the bottleneck); a run
// that outlasts the pool signs the rest as it sends them.
const pool = fresh ? freshTokens(s.run.port, Number(flag('pool') ?? 100_000)) : [];
const token = (w: number) =>
  perOwner?.[w % perOwner.length] ??
  (fresh
    ? (pool[used++] ?? demoToken(s.run.port, { sub: 'bench', jti: `p-${used}`, secret: BENCH_JWT_SECRET }))
    : c.token);
const next =
  kind === 'get'
    ? (w: number) => taskGet(ids[w % ids.length], { token: token(w) })
    : kind === 'call'
      ? (w: number) => toolCall('greet', { name: 'bench' }, { token: token(w) })
      : (w: number) => toolCall('slow_compute', { seconds: 0 }, { caps: TASKS_CAPS, token: token(w) });
const r = await runLoad({
  client: s.run.client,
  concurrency: Number(flag('clients') ?? (kind === 'create' ? 1 : 16)),
  warmupMs: 0,
  durationMs: seconds * 1000,
  maxRequests: 5_000_000,
  next,
  ok: (x) => x.status === 200,
  serverCpu: () => s.run.cpuSeconds(),
});
const cpuPerRequest = Math.round(((r.serverCpuSeconds ?? 0) * 1e6) / r.requests);
const latency = `p50 ${r.latency.p50.toFixed(2)} ms, p99 ${r.latency.p99.toFixed(2)} ms`;
const cpu = `${cpuPerRequest} µs server CPU per request`;
console.log(`${kind} on ${store}: ${Math.round(r.rps)} req/s, ${latency}, ${cpu}, ${r.errors} errors`);
await s.run.stop();
await pg?.stop();
await redis?.stop();
if (!profile) process.exit(0);
const dir = join(workDir, 'profiles', 'profiled');
console.log(
  `profile: ${join(dir, readdirSync(dir)[0])} (includes start-up: module loading shows up as node:internal/modules)`,
);
execFileSync(process.execPath, [join(root, 'dist/bench/profile-summary.js'), dir, flag('top') ?? '25'], {
  stdio: 'inherit',
});
