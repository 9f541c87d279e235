import { startNats } from '../../test/support/nats.js';
import { startRedis } from '../../test/support/redis.js';
import type { Running } from '../contestants/process.js';
import type { MetricKey } from '../report/metrics.js';
import { createDatabase } from '../support/databases.js';
import { LABELS, launchAll, onBus, type BusKind, type Brokers } from './bus-cluster.js';
import { CPU_KEYS, measureCpuBySize } from './bus-cpu-sizes.js';
import { measureRelay } from './bus-relay.js';
import { measureWriter, WRITER_KEYS } from './bus-writer.js';
import { BUSES } from './buses.settings.js';
import type { Ctx } from './context.js';

const RELAY_KEYS: MetricKey[] = ['cancelP50', 'cancelP99', 'answerP50', 'answerP99'];

/**
 * Issue 40: per bus (PostgreSQL store, five instances), cross-instance cancel and answer latency, then each instance's
 * CPU per relayed cancel with 4, 2 and 1 instances running tasks beside the one sending the cancels (a second
 * cluster of four on the same broker keeping the box's load constant); then another
 * writer's commit rate on the database with the PostgreSQL bus, the Redis bus, and no relays (bus-writer.ts).
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
      [0, 1, 2, 3, 4].map((i) => onBus(url, bus, brokers, `bus-${bus}-${i}`)),
    );
  } catch (err) {
    return notRun(ctx, label, (err as Error).message);
  }
  // A second cluster on the same broker (its own channels), for the CPU sizes' constant load.
  const prefix = bus === 'postgres' ? 'mcp_tasks_filler' : 'mcp-tasks-filler';
  const filler = await launchAll(
    ctx,
    [0, 1, 2, 3].map((i) => onBus(url, bus, brokers, `bus-${bus}-filler-${i}`, `${label} (filler)`, prefix)),
  ).catch((err: Error) => (cluster.forEach((r) => void r.stop()), notRun(ctx, label, err.message)));
  if (!filler) return;
  try {
    const rounds = BUSES.latencyRounds(ctx.plan);
    await measureRelay(ctx, cluster, 'cancel', label, rounds);
    await measureRelay(ctx, cluster, 'answer', label, rounds);
    await measureCpuBySize(ctx, cluster, filler, label);
  } finally {
    for (const r of [...cluster, ...filler]) await r.stop();
  }
}

function notRun(ctx: Ctx, label: string, reason: string): void {
  for (const k of [...RELAY_KEYS, ...Object.values(CPU_KEYS)])
    if (!ctx.results.get(k, label)) ctx.results.notRun(k, label, reason);
}
