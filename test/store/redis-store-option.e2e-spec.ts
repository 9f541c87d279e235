import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Redis } from 'ioredis';
import { McpTasksModule, RedisTaskStore, TaskStore, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { FixtureToolsModule } from '../fixtures/fixture-app.js';
import { call, getTask, TASKS, waitForTask } from '../support/mcp-request.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { until } from '../support/until.js';

let redis: TestRedis;
let raw: Redis;
const apps: INestApplication[] = [];

async function boot(store: McpTasksModuleOptions['store']): Promise<INestApplication> {
  const ref = await Test.createTestingModule({
    imports: [
      McpTasksModule.forRoot({ server: { name: 'redis', version: '1' }, shutdownGrace: 100, store }),
      FixtureToolsModule,
    ],
  }).compile();
  const app = ref.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  apps.push(app);
  return app;
}

/** Clients connected to the server, but `raw` itself. */
const others = async () => Number(/connected_clients:(\d+)/.exec(await raw.info('clients'))![1]) - 1;

beforeAll(async () => {
  redis = await startRedis();
  raw = new Redis(redis.url);
}, 120_000);
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});
afterAll(async () => {
  await raw?.quit();
  await redis?.stop();
});

describe('store { type: "redis" }', () => {
  it('serves tasks from Redis under the key prefix, and closes its own connection on shutdown', async () => {
    const app = await boot({ type: 'redis', url: redis.url, keyPrefix: 'app-a:' });
    expect(app.get(TaskStore)).toBeInstanceOf(RedisTaskStore);
    const started = await call(app, 'job', { ms: 50 }, { caps: TASKS });
    const id: string = started.body.result.taskId;
    expect(await waitForTask(app, id)).toMatchObject({ status: 'completed' });
    expect(JSON.parse((await raw.hget(`app-a:t:${id}`, 'status'))!)).toBe('completed');
    expect(await others()).toBe(1);
    await apps.pop()!.close();
    await until('the store closed its connection', async () => (await others()) === 0, 10_000);
  });

  it("on the app's own client: commands go on it, and it stays open after shutdown", async () => {
    const client = new Redis(redis.url);
    try {
      const app = await boot({ type: 'redis', client, keyPrefix: 'app-b:' });
      const id: string = (await call(app, 'job', { ms: 10 }, { caps: TASKS })).body.result.taskId;
      expect(await waitForTask(app, id)).toMatchObject({ status: 'completed' });
      await apps.pop()!.close();
      expect(client.status).toBe('ready');
      expect(JSON.parse((await client.hget(`app-b:t:${id}`, 'status'))!)).toBe('completed');
    } finally {
      await client.quit();
    }
  });

  it('a task lost with its Redis data reads as not found', async () => {
    const app = await boot({ type: 'redis', url: redis.url, keyPrefix: 'app-c:' });
    const id: string = (await call(app, 'job', { ms: 5_000 }, { caps: TASKS })).body.result.taskId;
    await raw.flushdb();
    expect((await getTask(app, id)).body.error).toMatchObject({ code: -32602 });
  });

  it.each([
    [{ type: 'redis', keyPrefix: '' }, /store\.keyPrefix must be a non-empty string/],
    [{ type: 'redis', url: 'http://127.0.0.1:6379' }, /store\.url must be a redis:\/\/ or rediss:\/\/ URL/],
    [{ type: 'redis', url: 'redis://127.0.0.1:6379', connection: {} }, /takes one of url, connection or client/],
    [{ type: 'redis', client: {} }, /store\.client must be an ioredis client/],
  ])('%j fails at startup naming the option', async (store, message) => {
    await expect(boot(store as McpTasksModuleOptions['store'])).rejects.toThrow(message);
  });

  it('a server that cannot be reached fails startup, naming the store', async () => {
    await expect(boot({ type: 'redis', url: 'redis://127.0.0.1:1' })).rejects.toThrow(
      /store \{ type: "redis" \} could not connect to Redis: .*ECONNREFUSED/,
    );
  });
});
