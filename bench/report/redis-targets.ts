import type { MetricKey } from './metrics.js';
import { MEMORY, MEMORY_OWNERS, POSTGRES, POSTGRES_OWNERS, REDIS, REDIS_OWNERS } from './names.js';
import type { Results } from './results.js';
import type { Target } from './targets.js';

/** `store` ÷ `memory` on `metric`, shown beside PostgreSQL's ÷ the same memory figure (same phase, same rounds). */
const besidePostgres = (metric: MetricKey, store: string, postgres: string, memory: string) => (r: Results) => {
  const mem = r.value(metric, memory);
  const mine = r.value(metric, store);
  if (mem === undefined || mem === 0 || mine === undefined) return undefined;
  const pg = r.value(metric, postgres);
  const theirs = pg === undefined ? 'not measured' : `${(pg / mem).toFixed(2)}×`;
  return { x: mine / mem, shown: `${(mine / mem).toFixed(2)}× (PostgreSQL ${theirs})` };
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
