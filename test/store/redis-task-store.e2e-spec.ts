import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { TaskChange } from '@mcp-tasks/nestjs';
import { newTask, NO_LIMITS, T0, taskStoreContract } from '@mcp-tasks/nestjs/testing';
import { startRedis, type TestRedis } from '../support/redis.js';
import { redisHarness } from './redis-harness.js';

// The server starts before the harnesses open: jest runs beforeAll hooks in declaration order.
let redis: TestRedis | undefined;
const url = () => {
  if (!redis) throw new Error('test Redis did not start');
  return redis.url;
};

describe('RedisTaskStore', () => {
  beforeAll(async () => {
    redis = await startRedis();
  }, 120_000);
  afterAll(async () => redis?.stop());

  describe('contract', () => {
    const jest = { describe, it, expect, beforeAll, afterAll, beforeEach };
    taskStoreContract(() => redisHarness(url()), jest, { shared: true });
  });

  it('stores under different key prefixes on one server do not see each other', async () => {
    const [a, b] = [await redisHarness(url(), 'iso-a:'), await redisHarness(url(), 'iso-b:')];
    try {
      const task = newTask();
      expect(await a.store.create(task, NO_LIMITS)).toBe('created');
      expect(await b.store.get(task.id, T0)).toBeUndefined();
      expect(await b.store.create(newTask(), { maxPerOwner: 1, maxTotal: 1 })).toBe('created');
      expect(await a.store.get(task.id, T0)).toEqual(task);
    } finally {
      await Promise.all([a.reset(), b.reset()]);
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('RedisTaskStore across a Redis restart', () => {
  const servers: TestRedis[] = [];
  afterAll(async () => Promise.all(servers.map((s) => s.stop())));

  /** A store on a server of its own, with a task created, its lease held by node-a. */
  async function storeWithTask(appendonly: boolean) {
    const server = await startRedis({ appendonly });
    servers.push(server);
    const h = await redisHarness(server.url, 'restart:');
    const task = newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 60_000 });
    expect(await h.store.create(task, { maxPerOwner: 2, maxTotal: 10 })).toBe('created');
    await h.store.update(task.id, { kind: 'progress', statusMessage: 'half' }, T0 + 1);
    return { server, h, task };
  }

  it('with the AOF on (appendfsync always), tasks, their indexes and the scripts work on after a restart', async () => {
    const { server, h, task } = await storeWithTask(true);
    try {
      await server.restart({ kill: true });
      // The client reconnects by itself; the server lost its script cache, so the first script goes as source.
      expect(await h.store.get(task.id, T0 + 2)).toEqual({ ...task, statusMessage: 'half', updatedAt: T0 + 1 });
      expect(await h.store.create(newTask(), { maxPerOwner: 2, maxTotal: 10 })).toBe('created');
      expect(await h.store.create(newTask(), { maxPerOwner: 2, maxTotal: 10 })).toBe('owner-limit');
      expect(await h.store.renewLeases([task.id], 'node-a', T0 + 90_000)).toEqual([task.id]);
      const finish: TaskChange = { kind: 'finish', status: 'completed', result: { content: [] } };
      expect((await h.store.update(task.id, finish, T0 + 3))?.changed).toBe(true);
      expect(await h.store.listTasks({ limit: 10 }, T0 + 4)).toMatchObject({ total: 2 });
    } finally {
      await h.close();
    }
  }, 60_000);

  it('without the AOF, a restart loses every task: reads find none, and the caps count from zero', async () => {
    const { server, h, task } = await storeWithTask(false);
    try {
      await server.restart();
      expect(await h.store.get(task.id, T0 + 2)).toBeUndefined();
      expect(await h.store.update(task.id, { kind: 'progress', statusMessage: 'x' }, T0 + 2)).toBeUndefined();
      expect(await h.store.renewLeases([task.id], 'node-a', T0 + 90_000)).toEqual([]);
      expect(await h.countAll()).toBe(0);
      expect(await h.store.create(newTask(), { maxPerOwner: 1, maxTotal: 1 })).toBe('created');
    } finally {
      await h.close();
    }
  }, 60_000);
});
