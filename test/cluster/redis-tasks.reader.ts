import { Redis } from 'ioredis';
// Internal: the store's key names (not exported).
import { DEFAULT_REDIS_PREFIX, RedisKeys } from '../../libs/mcp-tasks/src/store/redis/redis-keys.js';
import type { StoredTask, StoredTasks } from './stored-tasks.reader.js';

const keys = new RedisKeys(DEFAULT_REDIS_PREFIX);
const FIELDS = ['id', 'tool', 'status', 'error'] as const;

/**
 * The Redis store's task hashes (`<prefix>t:<id>`, each field JSON), found with SCAN: the tasks themselves, not the
 * store's indexes, so a count here does not trust the bookkeeping it checks.
 */
export async function redisTasks(url: string): Promise<StoredTasks> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const read = async (key: string): Promise<StoredTask | undefined> => {
    const values = await redis.hmget(key, ...FIELDS);
    if (values[0] === null) return undefined;
    const task = Object.fromEntries(FIELDS.map((f, i) => [f, values[i] === null ? undefined : JSON.parse(values[i]!)]));
    return task as unknown as StoredTask;
  };
  return {
    all: async () => {
      const found: string[] = [];
      const stream = redis.scanStream({ match: keys.task('*'), count: 500 });
      for await (const batch of stream) found.push(...(batch as string[]));
      return (await Promise.all(found.map(read))).filter((t): t is StoredTask => !!t);
    },
    get: (id) => read(keys.task(id)),
    close: async () => void (await redis.quit()),
  };
}
