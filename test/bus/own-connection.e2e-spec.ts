import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { connect, type NatsConnection } from 'nats';
import type { TaskEvent } from '@mcp-tasks/nestjs';
import { NatsTaskEventBus } from '../../libs/mcp-tasks/src/events/nats-task-event.bus.js';
import { RedisTaskEventBus } from '../../libs/mcp-tasks/src/events/redis-task-event.bus.js';
import { startNats, type TestNats } from '../support/nats.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { until } from '../support/until.js';

type Bus = RedisTaskEventBus | NatsTaskEventBus;

/** `to`, following `run`, hears an answer `from` publishes (retried until the follow took effect). */
async function relays(from: Bus, to: Bus, run: string): Promise<void> {
  const unfollow = to.follow(run);
  const heard: TaskEvent[] = [];
  const off = to.subscribe((e) => heard.push(e));
  const answer: TaskEvent = { type: 'question-answered', taskId: run, question: '1', answer: { result: 'ok' } };
  try {
    await until('the answer to cross', () => from.publish(answer).then(() => heard.length > 0), 15_000, 200);
    expect(heard[0]).toEqual(answer);
  } finally {
    off();
    unfollow();
  }
}

describe('buses on the app’s own connection', () => {
  let redis: TestRedis;
  let nats: TestNats;
  beforeAll(async () => {
    [redis, nats] = await Promise.all([startRedis(), startNats()]);
  }, 60_000);
  afterAll(async () => Promise.all([redis?.stop(), nats?.stop()]));

  it('Redis: publishes on the app’s client, subscribes on a duplicate, and leaves the client open', async () => {
    const clients = [new Redis(redis.url), new Redis(redis.url)];
    const [a, b] = clients.map((c) => new RedisTaskEventBus(Redis, { connection: c }));
    for (const bus of [a, b]) await bus.onModuleInit();
    await until('both to connect', () => a.health().connected && b.health().connected, 15_000);
    await relays(a, b, 'run-redis');
    for (const bus of [a, b]) await bus.onApplicationShutdown();
    for (const c of clients) expect(await c.ping()).toBe('PONG');
    for (const c of clients) c.disconnect();
  }, 60_000);

  it('NATS: subscribes on the app’s connection and leaves it open', async () => {
    const conns: NatsConnection[] = [await connect({ servers: nats.url }), await connect({ servers: nats.url })];
    const [a, b] = conns.map((nc) => new NatsTaskEventBus(connect, { connection: nc }));
    for (const bus of [a, b]) await bus.onModuleInit();
    await relays(a, b, 'run-nats');
    for (const bus of [a, b]) await bus.onApplicationShutdown();
    for (const nc of conns) expect(nc.isClosed()).toBe(false);
    await conns[0].flush();
    for (const nc of conns) await nc.close();
  }, 60_000);
});
