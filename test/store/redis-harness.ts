import { Redis } from 'ioredis';
import { isLive, RedisTaskStore, type TaskRecord } from '@mcp-tasks/nestjs';
import type { StoreHarness } from '@mcp-tasks/nestjs/testing';

export interface RedisHarness extends StoreHarness {
  store: RedisTaskStore;
  /** A client of its own, for reading the backing data directly. */
  raw: Redis;
}

/** Every task hash under `prefix`, read with plain commands (not the store's scripts nor its indexes). */
async function rows(raw: Redis, prefix: string): Promise<TaskRecord[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await raw.scan(cursor, 'MATCH', `${prefix}t:*`, 'COUNT', 1000);
    keys.push(...batch);
    cursor = next;
  } while (cursor !== '0');
  const hashes = await Promise.all(keys.map((k) => raw.hgetall(k)));
  return hashes.map((h) => {
    const task: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(h)) if (!k.startsWith('_')) task[k] = JSON.parse(v);
    return task as unknown as TaskRecord;
  });
}

/**
 * Redis stores on `url` under `prefix`: the store and its peer each on a connection of their own (two nodes).
 * `reset` deletes the prefix's keys.
 */
export async function redisHarness(url: string, prefix = 'contract:'): Promise<RedisHarness> {
  const raw = new Redis(url);
  const clients = [new Redis(url), new Redis(url)];
  return {
    raw,
    store: new RedisTaskStore(clients[0], { keyPrefix: prefix }),
    peer: new RedisTaskStore(clients[1], { keyPrefix: prefix }),
    countLive: async (owner, now) =>
      (await rows(raw, prefix)).filter((t) => t.owner === owner && isLive(t, now)).length,
    countAll: async () => (await rows(raw, prefix)).length,
    reset: async () => {
      const keys = await raw.keys(`${prefix}*`);
      if (keys.length > 0) await raw.del(...keys);
    },
    close: async () => {
      await Promise.all([raw, ...clients].map((c) => c.quit()));
    },
  };
}
