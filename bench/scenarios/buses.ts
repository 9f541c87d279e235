import { startNats } from '../../test/support/nats.js';
import { startRedis } from '../../test/support/redis.js';
import type { Running } from '../contestants/process.js';
import type { MetricKey } from '../report/metrics.js';
import { createDatabase } from '../support/databases.js';
import { LABELS, launchAll, onBus, type BusKind, type Brokers } from './bus-cluster.js';
import { cpuRound, type CpuRound } from './bus-cpu.js';
import { measureRelay } from './bus-relay.js';
import { measureWriter, WRITER_KEYS } from './bus-writer.js';
import { BUSES } from './buses.settings.js';
import type { Ctx } from './context.js';

const RELAY_KEYS: MetricKey[] = ['cancelP50', 'cancelP99', 'answerP50', 'answerP99'];
const CPU_KEYS = { 1: 'relayCpu1', 2: 'relayCpu2', 4: 'relayCpu4' } as const satisfies Record<number, MetricKey>;

/**
 * Issue 40: per bus (PostgreSQL store, four instances), cross-instance cancel and answer latency, then the CPU per
 * relayed cancel with 4, 2 and 1 instances (stopping instances in between); then another writer's commit rate on the
 * database with the PostgreSQL bus, the Redis bus, and no relays (bus-writer.ts).
 */
export async function measureBuses(ctx: Ctx): Promise<void> {
  const brokers: Brokers = {};
  try {
    const pg = await ctx.postgres();
    brokers.redis = await startRedis().catch((err: Error) => (ctx.log(`  no redis-server: ${err.message}`), undefined));
    brokers.nats = await startNats().catch((err: Error) => (ctx.log(`  no nats-server: ${err.message}`), undefined));
    for (const bus of ['postgres', 'redis', 'nats'] as const) {
      const missing = bus === 'redis' ? !brokers.redis : bus === 'nats' ? !brokers.nats : false;
      if (missing) notRun(ctx, LABELS[bus], `no ${bus}-server`);
      else await oneBus(ctx, await createDatabase(pg.url, `bench_bus_${bus}`), bus, brokers);
    }
    await measureWriter(ctx, await createDatabase(pg.url, 'bench_bus_writer'), brokers);
  } catch (err) {
    const reason = (err as Error).message;
    for (const label of Object.values(LABELS)) notRun(ctx, label, reason);
    for (const [k, who] of WRITER_KEYS) if (!ctx.results.get(k, who)) ctx.results.notRun(k, who, reason);
  } finally {
    await brokers.redis?.stop();
    await brokers.nats?.stop();
  }
}

async function oneBus(ctx: Ctx, url: string, bus: BusKind, brokers: Brokers): Promise<void> {
  const label = LABELS[bus];
  let cluster: Running[];
  try {
    cluster = await launchAll(
      ctx,
      [0, 1, 2, 3].map((i) => onBus(url, bus, brokers, `bus-${bus}-${i}`)),
    );
  } catch (err) {
    return notRun(ctx, label, (err as Error).message);
  }
  try {
    const rounds = BUSES.latencyRounds(ctx.plan);
    await measureRelay(ctx, cluster, 'cancel', label, rounds);
    await measureRelay(ctx, cluster, 'answer', label, rounds);
    for (const n of [4, 2, 1] as const) {
      while (cluster.length > n) await cluster.pop()!.stop();
      await measureCpu(ctx, cluster, CPU_KEYS[n], label);
    }
  } finally {
    for (const r of cluster) await r.stop();
  }
}

/**
 * CPU of the whole cluster per relayed cancel, the relays always between the first two instances (one alone: through
 * itself), so that the load is the same whatever the size and what grows with it is what the others spend: total over
 * the rounds ÷ relays (each round's figure, and each instance's share, in the note).
 */
async function measureCpu(ctx: Ctx, cluster: Running[], key: MetricKey, label: string): Promise<void> {
  const events = BUSES.cpuEvents(ctx.plan);
  try {
    const pair = Math.min(2, cluster.length);
    await cpuRound(cluster, BUSES.cpuWarmup, pair); // unmeasured: the new cluster size's first round
    const rounds: CpuRound[] = [];
    for (let i = 0; i < BUSES.cpuRounds(ctx.plan); i++) rounds.push(await cpuRound(cluster, events, pair));
    const relayed = rounds.reduce((s, r) => s + r.relayed, 0);
    const lost = rounds.reduce((s, r) => s + r.lost, 0);
    if (!relayed) return ctx.results.notRun(key, label, `no signal fired of ${lost} cancels`);
    const per = rounds.map((r) => r.cpuUs / Math.max(1, r.relayed));
    const value = rounds.reduce((s, r) => s + r.cpuUs, 0) / relayed;
    const lostNote = lost ? `; ${lost} cancels never fired their signal` : '';
    const each = cluster.map((_, i) => Math.round(rounds.reduce((s, r) => s + r.perInstanceUs[i], 0) / relayed));
    const note = `rounds: ${per.map(Math.round).join(', ')} µs; each instance: ${each.join(' + ')} µs${lostNote}`;
    ctx.results.set(key, label, value, note, per);
    ctx.log(`  ${label}, ${cluster.length} instance(s): ${Math.round(value)} µs CPU per relayed cancel (${note})`);
  } catch (err) {
    ctx.results.notRun(key, label, (err as Error).message);
  }
}

function notRun(ctx: Ctx, label: string, reason: string): void {
  for (const k of [...RELAY_KEYS, ...Object.values(CPU_KEYS)])
    if (!ctx.results.get(k, label)) ctx.results.notRun(k, label, reason);
}
