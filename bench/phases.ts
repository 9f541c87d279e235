import { join } from 'node:path';
import { launch, type Started } from './contestants/lineup.js';
import { createDatabase } from './support/databases.js';
import { benchRedis, type BenchRedis } from './support/redis-server.js';
import {
  limit,
  limitProxy,
  mcpNestPeer,
  onMemory,
  onPostgres,
  onRedis,
  onSqlite,
  pgLimit,
  sdkPeer,
  type Contestant,
} from './contestants/registry.js';
import {
  CANCEL_CROSS,
  CANCEL_LOCAL,
  CONSOLE_POSTGRES,
  CPU_AUTH,
  CPU_AUTH_FRESH,
  CPU_BASE,
  CPU_BASE_FRESH,
  CPU_NO_TELEMETRY,
  CPU_OTEL_SDK,
  FASTIFY_NEST_ROUTE,
  GATEWAY,
  GATEWAY_DIRECT,
  GATEWAY_RELAY,
  MCP_NEST,
  MEMORY_NEST_ROUTE,
  MEMORY_OWNERS,
  POSTGRES,
  POSTGRES_MILLION,
  POSTGRES_OWNERS,
  POSTGRES_PAIR,
  POSTGRES_PAIR_ALONE,
  REDIS,
  REDIS_OWNERS,
} from './report/names.js';
import { measureBuses } from './scenarios/buses.js';
import { measureCancel } from './scenarios/cancel.js';
import { measureConsole } from './scenarios/console.js';
import type { Ctx } from './scenarios/context.js';
import { measureCpuCost } from './scenarios/cpu-cost.js';
import { CREATE_OWNERS, measureCreate } from './scenarios/create.js';
import { measureGateway } from './scenarios/gateway.js';
import { measureIdleMemory } from './scenarios/idle-memory.js';
import { MILLION_KEYS, measureMillion } from './scenarios/million.js';
import { measureResume, notRun as resumeNotRun } from './scenarios/resume.js';
import { measureScale } from './scenarios/scale.js';
import { headToHead, SYNC_CALL, TASKS_GET } from './scenarios/throughput.js';
import { measureTwoInstances } from './scenarios/two-instances.js';

/** Starts the contestants (one `missing` already is passed on as such), runs `fn` on them, and always stops them. */
async function using(ctx: Ctx, cs: Array<Contestant | Started>, fn: (...s: Started[]) => Promise<void>) {
  // Started side by side: they idle until measured, and starting them together saves time.
  const started = await Promise.all(cs.map((c) => ('ok' in c ? Promise.resolve(c) : launch(c, ctx.o, ctx.log))));
  try {
    await fn(...started);
  } finally {
    for (const s of started) if (s.ok) await s.run.stop();
  }
}

/** An empty database in the run's throwaway PostgreSQL cluster (started on first use), or why there is none. */
async function database(ctx: Ctx, name: string): Promise<string | { reason: string }> {
  try {
    const pg = await ctx.postgres();
    return await createDatabase(pg.url, name);
  } catch (err) {
    const reason = `no PostgreSQL: ${(err as Error).message}`;
    ctx.log(`  ${reason}`);
    return { reason };
  }
}

/** A contestant that could not even be configured (no database): reported like one that failed to start. */
const missing = (c: Contestant, reason: string): Started => ({ ok: false, c, reason });

/** The demo on the phase's Redis (`benchRedis`), or, without one, that demo reported as not run. */
function onBenchRedis(redis: BenchRedis, id: string, name: string, auth = false): Contestant | Started {
  const c = { ...onRedis('url' in redis ? redis.url : '', id, name, auth ? { MCP_AUTH: '1' } : {}), auth };
  return 'url' in redis ? c : missing(c, redis.reason);
}

export interface Phase {
  name: string;
  /** Only with `--scale` (long: a million tasks); otherwise its figures are reported `not run`. */
  scale?: { skipped(ctx: Ctx, reason: string): void };
  run(ctx: Ctx): Promise<void>;
}

export const PHASES: Phase[] = [
  {
    name: 'head to head: limit, SDK, MCP-Nest, module on memory, SQLite, PostgreSQL and Redis, the database limit',
    async run(ctx) {
      const routed = onMemory(MEMORY_NEST_ROUTE, 'module-memory-nest-route', { MCP_FAST_PATH: '0' });
      const fastify = onMemory(FASTIFY_NEST_ROUTE, 'module-memory-fastify-route', {
        MCP_FAST_PATH: '0',
        MCP_ADAPTER: 'fastify',
      });
      const url = await database(ctx, 'bench_main');
      const limitUrl = typeof url === 'string' ? await database(ctx, 'bench_pg_limit') : url;
      const a = onPostgres(typeof url === 'string' ? url : '', 'module-postgres-a', POSTGRES);
      const b = onPostgres(typeof url === 'string' ? url : '', 'module-postgres-b', `${POSTGRES} B`);
      const pgl = pgLimit(typeof limitUrl === 'string' ? limitUrl : '');
      const sqlite = onSqlite(join(ctx.o.workDir, 'bench.sqlite'));
      const onDb = typeof url === 'string' && typeof limitUrl === 'string' ? [a, b, pgl] : [];
      const redis = await benchRedis(ctx);
      const onRd = onBenchRedis(redis, 'module-redis', REDIS);
      // Every contestant is up for the whole phase (idle until its turn), so that the stores' figures come from
      // the same interleaved rounds as the memory store's they are divided by.
      await using(
        ctx,
        [limit(), sdkPeer(), mcpNestPeer(), onMemory(), routed, fastify, sqlite, onRd, ...onDb],
        async (lim, sdk, nest, mem, viaNest, viaFastify, lite, rd, ...db) => {
          const reason = typeof url === 'string' ? (typeof limitUrl === 'string' ? '' : limitUrl.reason) : url.reason;
          const [sa, sb, sl] = db.length ? db : [missing(a, reason), missing(b, reason), missing(pgl, reason)];
          await headToHead(ctx, [lim, sdk, mem, viaNest, viaFastify, lite, sa, rd, sl], TASKS_GET);
          await headToHead(ctx, [lim, sdk, nest, mem, viaNest, viaFastify], SYNC_CALL);
          for (const s of [lim, sdk, mem, lite, sl, sa]) await measureCreate(ctx, s);
          await measureCancel(ctx, mem, mem, CANCEL_LOCAL);
          await measureCancel(ctx, sa, sb, CANCEL_CROSS);
        },
      ).finally(() => redis.stop());
      ctx.results.notes.push(`${MCP_NEST}: no tasks extension, so it has no tasks/get or task-creation figures.`);
    },
  },
  {
    name: 'two instances: PostgreSQL, one instance alone vs two on one database sharing its load',
    async run(ctx) {
      const url = await database(ctx, 'bench_pair');
      const pair = ['a', 'b'].map((x) => {
        const c = onPostgres(typeof url === 'string' ? url : '', `pair-postgres-${x}`, `${POSTGRES_PAIR} ${x}`);
        return typeof url === 'string' ? c : missing(c, url.reason);
      });
      await using(ctx, pair, (a, b) => measureTwoInstances(ctx, [a, b], POSTGRES_PAIR, POSTGRES_PAIR_ALONE));
    },
  },
  {
    name: 'gateway: a proxied sync tools/call and tasks/get vs the upstream called directly',
    async run(ctx) {
      await using(ctx, [onMemory(GATEWAY_DIRECT, 'gateway-upstream')], async (up) => {
        if (!up.ok) return measureGateway(ctx, up, missing(onMemory(GATEWAY, 'gateway'), up.reason));
        // The demo serves the tools of MCP_UPSTREAM_URL as `upstream_*` (src/demo-upstream.ts).
        const env = { MCP_UPSTREAM_URL: `http://127.0.0.1:${up.run.port}/mcp` };
        const relay = limitProxy(GATEWAY_RELAY, 'gateway-relay', env);
        await using(ctx, [onMemory(GATEWAY, 'gateway', env), relay], (gw, r) => measureGateway(ctx, up, gw, r));
      });
    },
  },
  {
    name: 'task creation with one owner per client: memory, PostgreSQL and Redis',
    async run(ctx) {
      const url = await database(ctx, 'bench_owners');
      const mem = { ...onMemory(MEMORY_OWNERS, 'module-memory-owners', { MCP_AUTH: '1' }), auth: true };
      const pg = {
        ...onPostgres(typeof url === 'string' ? url : '', 'module-postgres-owners', POSTGRES_OWNERS, { MCP_AUTH: '1' }),
        auth: true,
      };
      const redis = await benchRedis(ctx);
      const rd = onBenchRedis(redis, 'module-redis-owners', REDIS_OWNERS, true);
      const onPg = typeof url === 'string' ? pg : missing(pg, url.reason);
      await using(ctx, [mem, onPg, rd], (...s) => headToHead(ctx, s, CREATE_OWNERS)).finally(() => redis.stop());
    },
  },
  {
    name: 'tasks/get with few and many live tasks',
    async run(ctx) {
      const { memory, database: onDisk } = ctx.plan.scaleLarge;
      const files = ['scale-small.sqlite', 'scale-large.sqlite'].map((f) => join(ctx.o.workDir, f));
      const urls = [await database(ctx, 'bench_small'), await database(ctx, 'bench_large')];
      const pg = urls.map((url, i) =>
        onPostgres(typeof url === 'string' ? url : '', `scale-postgres-${i ? 'large' : 'small'}`, POSTGRES),
      );
      const down = urls.find((u): u is { reason: string } => typeof u !== 'string');
      const cs = [
        onMemory(undefined, 'scale-memory-small'),
        onMemory(undefined, 'scale-memory-large'),
        onSqlite(files[0], 'scale-sqlite-small'),
        onSqlite(files[1], 'scale-sqlite-large'),
        ...(down ? [] : pg),
      ];
      // All six start together (they idle until their turn); the pairs are measured one after another.
      await using(ctx, cs, async (ma, mb, sa, sb, pa, pb) => {
        await measureScale(ctx, ma, mb, memory);
        await measureScale(ctx, sa, sb, onDisk);
        await measureScale(
          ctx,
          pa ?? missing(pg[0], down?.reason ?? '?'),
          pb ?? missing(pg[1], down?.reason ?? '?'),
          onDisk,
        );
      });
    },
  },
  {
    name: 'scale: PostgreSQL with a million live tasks, and a sweep of a million expired ones',
    scale: { skipped: (ctx, reason) => MILLION_KEYS.forEach((k) => ctx.results.notRun(k, POSTGRES_MILLION, reason)) },
    async run(ctx) {
      const urls = [await database(ctx, 'bench_million_small'), await database(ctx, 'bench_million_large')];
      const down = urls.find((u): u is { reason: string } => typeof u !== 'string');
      const pg = urls.map((url, i) =>
        onPostgres(typeof url === 'string' ? url : '', `million-${i ? 'large' : 'small'}`, POSTGRES_MILLION),
      );
      if (down)
        return measureMillion(ctx, missing(pg[0], down.reason), missing(pg[1], down.reason), '', POSTGRES_MILLION);
      await using(ctx, pg, (a, b) => measureMillion(ctx, a, b, urls[1] as string, POSTGRES_MILLION));
    },
  },
  {
    name: 'operator console data on PostgreSQL',
    async run(ctx) {
      const url = await database(ctx, 'bench_console');
      const c = onPostgres(typeof url === 'string' ? url : '', 'console-postgres', CONSOLE_POSTGRES);
      if (typeof url !== 'string') return measureConsole(ctx, missing(c, url.reason), '', 0);
      await using(ctx, [c], (s) => measureConsole(ctx, s, url, ctx.plan.scaleLarge.database));
    },
  },
  {
    name: 'resume: tasks of a killed or stopped instance taken over by another (PostgreSQL)',
    async run(ctx) {
      const url = await database(ctx, 'bench_resume');
      if (typeof url !== 'string') return resumeNotRun(ctx, url.reason);
      await measureResume(ctx, url);
    },
  },
  {
    name: 'buses: cancel and answer across instances, CPU per relay with 1, 2, 4 instances, a writer beside them',
    run: (ctx) => measureBuses(ctx),
  },
  {
    name: 'memory per idle task',
    async run(ctx) {
      await using(ctx, [onMemory(undefined, 'idle-memory')], (s) =>
        measureIdleMemory(ctx, s, ctx.plan.idleTasks, ctx.plan.doneTasks),
      );
    },
  },
  {
    name: 'CPU per request: telemetry and JWT auth',
    async run(ctx) {
      const auth = { ...onMemory(CPU_AUTH, 'cpu-auth', { MCP_AUTH: '1' }), auth: true };
      const fresh = { ...onMemory(CPU_AUTH_FRESH, 'cpu-auth-fresh', { MCP_AUTH: '1' }), auth: true, freshTokens: true };
      // Auth off, sent the very requests the new-token variant gets (the token is ignored): building a
      // new request per send changes the load generator's pace, and with it the server's CPU per request.
      const baseFresh = { ...onMemory(CPU_BASE_FRESH, 'cpu-base-fresh'), freshTokens: true };
      const variants = [
        onMemory(CPU_BASE, 'cpu-base'),
        onMemory(CPU_NO_TELEMETRY, 'cpu-no-telemetry', { MCP_TELEMETRY: '0' }),
        onMemory(CPU_OTEL_SDK, 'cpu-otel-sdk', { MCP_BENCH_OTEL: 'sdk' }),
        auth,
        baseFresh,
        fresh,
      ];
      await using(ctx, variants, (...s) => measureCpuCost(ctx, s));
    },
  },
];
