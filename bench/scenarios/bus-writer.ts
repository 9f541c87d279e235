import type { Running } from '../contestants/process.js';
import type { MetricKey } from '../report/metrics.js';
import { WRITER_ALONE, WRITER_PG_BUS, WRITER_REDIS_BUS } from '../report/names.js';
import { startWriter } from '../support/pg-writer.js';
import { firedCount, relayLoad } from './bus-load.js';
import { launchAll, onBus, type Brokers } from './bus-cluster.js';
import { BUSES } from './buses.settings.js';
import type { Ctx } from './context.js';

export const WRITER_KEYS: Array<[MetricKey, string]> = [WRITER_ALONE, WRITER_PG_BUS, WRITER_REDIS_BUS].map((w) => [
  'writerTps',
  w,
]);

interface Side {
  name: string;
  /** The pair relaying during this side's rounds (none: the writer alone). */
  pair?: Running[];
  perRound: number[];
  relays: number;
}

/**
 * Another app's writer on the module's database (a pg client committing one-row INSERTs back to back): alone, while
 * two instances relay cancels over the PostgreSQL bus, and while two others relay over Redis, all four on this one
 * database as their store. Rounds rotate the three sides, so a busy spell of the machine falls on each.
 */
export async function measureWriter(ctx: Ctx, url: string, brokers: Brokers): Promise<void> {
  const ms = BUSES.writerMs(ctx.plan);
  const cs = [0, 1].map((i) => onBus(url, 'postgres', brokers, `writer-pg-bus-${i}`));
  if (brokers.redis) cs.push(...[0, 1].map((i) => onBus(url, 'redis', brokers, `writer-redis-bus-${i}`)));
  const runs = await launchAll(ctx, cs);
  const writer = await startWriter(url).catch(async (err: Error) => {
    for (const r of runs) await r.stop();
    throw err;
  });
  try {
    const sides: Side[] = [
      { name: WRITER_ALONE, perRound: [], relays: 0 },
      { name: WRITER_PG_BUS, pair: runs.slice(0, 2), perRound: [], relays: 0 },
      ...(brokers.redis ? [{ name: WRITER_REDIS_BUS, pair: runs.slice(2, 4), perRound: [], relays: 0 }] : []),
    ];
    if (!brokers.redis) ctx.results.notRun('writerTps', WRITER_REDIS_BUS, 'no redis-server');
    for (const s of sides) await oneSide(writer, s, 500); // unmeasured: every side once
    for (let round = 0; round < BUSES.writerRounds(ctx.plan); round++)
      for (let k = 0; k < sides.length; k++) {
        const s = sides[(round + k) % sides.length];
        s.perRound.push(await oneSide(writer, s, ms));
      }
    for (const s of sides) {
      const mean = s.perRound.reduce((a, b) => a + b, 0) / s.perRound.length;
      const relays = s.pair ? `; ${Math.round(s.relays / ((s.perRound.length * ms) / 1000))} relayed cancels/s` : '';
      const note = `rounds: ${s.perRound.map(Math.round).join(', ')} tx/s${relays}`;
      ctx.results.set('writerTps', s.name, mean, note, s.perRound);
      ctx.log(`  ${s.name}: ${Math.round(mean)} commits/s (${note})`);
    }
  } finally {
    await writer.close();
    for (const r of runs) await r.stop();
  }
}

/** Commits per second of one round of `side`; the relays it made go to `side.relays` (measured rounds only). */
async function oneSide(writer: { commitsIn(ms: number): Promise<number> }, side: Side, ms: number): Promise<number> {
  let writing = true;
  const load = side.pair ? relayLoad(side.pair, () => writing) : Promise.resolve([]);
  // The relays start first: the writer's window covers only the time they run.
  await new Promise((r) => setTimeout(r, side.pair ? 200 : 0));
  const commits = await writer.commitsIn(ms);
  writing = false;
  const ids = await load;
  if (side.pair) {
    const fired = await firedCount(side.pair, ids);
    if (ms > 500) side.relays += fired;
  }
  return commits / (ms / 1000);
}
