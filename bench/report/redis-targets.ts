import type { MetricKey } from './metrics.js';
import { MEMORY, MEMORY_OWNERS, POSTGRES, POSTGRES_OWNERS, REDIS, REDIS_OWNERS } from './names.js';
import type { Results } from './results.js';
import { pairedRatio } from './ratios.js';
import type { Target } from './targets.js';

/** `a` ÷ `b` on `metric` (the figures: medians over the rounds), or undefined. */
const over = (r: Results, metric: MetricKey, a: string, b: string) => {
  const x = r.value(metric, a);
  const y = r.value(metric, b);
  return x === undefined || y === undefined || y === 0 ? undefined : x / y;
};

const times = (x: number | undefined) => (x === undefined ? 'not measured' : `${x.toFixed(2)}×`);

/**
 * `store` ÷ `memory` on `metric`, shown beside PostgreSQL's ÷ the same memory figure (same phase, same interleaved
 * rounds). With three rounds or more, also the medians of the per-round ratios: a round's figures swing several-fold
 * on a loaded machine, and two contestants measured moments apart swing together.
 */
const besidePostgres = (metric: MetricKey, store: string, postgres: string, memory: string) => (r: Results) => {
  const x = over(r, metric, store, memory);
  if (x === undefined) return undefined;
  const shown = `${times(x)} (PostgreSQL ${times(over(r, metric, postgres, memory))})`;
  if ((r.get(metric, store)?.rounds?.length ?? 0) < 3) return { x, shown };
  const paired = (who: string) => (r.get(metric, who)?.rounds ? pairedRatio(metric, who, memory)(r)?.x : undefined);
  return { x, shown: `${shown}; per-round median ${times(paired(store))} (PostgreSQL ${times(paired(postgres))})` };
};

/** Issue 40: the Redis store against the memory store, beside PostgreSQL's ratio; reported, no pass/miss. */
export const REDIS_TARGETS: Target[] = [
  {
    metric: 'getRps',
    contestant: REDIS,
    text: 'Redis tasks/get ÷ memory-store throughput (16 in flight), reported beside PostgreSQL ÷ memory',
    measure: besidePostgres('getRps', REDIS, POSTGRES, MEMORY),
  },
  {
    metric: 'getCpu',
    contestant: REDIS,
    text: 'Redis tasks/get Node CPU per request ÷ memory store, reported beside PostgreSQL ÷ memory',
    measure: besidePostgres('getCpu', REDIS, POSTGRES, MEMORY),
  },
  {
    metric: 'createOwnersRps',
    contestant: REDIS_OWNERS,
    text:
      'Redis create, 50 clients, 50 owners ÷ memory store (JWT auth on in all), reported beside ' +
      'PostgreSQL ÷ memory',
    measure: besidePostgres('createOwnersRps', REDIS_OWNERS, POSTGRES_OWNERS, MEMORY_OWNERS),
  },
];
