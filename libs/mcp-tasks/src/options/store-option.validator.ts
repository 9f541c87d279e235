import { isRedisStoreConfig, redisStoreProblem } from '../store/redis/redis-store.config.js';
import { isTaskStore } from '../store/task-store.interface.js';

/** What is wrong with the `store` option, naming the field at fault, or `undefined`. */
export function storeOptionProblem(v: any): string | undefined {
  if (isTaskStore(v) || v?.type === 'typeorm') return undefined;
  if (isRedisStoreConfig(v)) return redisStoreProblem(v);
  return (
    'store must implement TaskStore (create, get, update, sweep, renewLeases, reclaimExpiredLeases)' +
    ' or be { type: "typeorm" } or { type: "redis" }'
  );
}
