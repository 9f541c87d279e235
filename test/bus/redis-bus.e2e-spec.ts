import { describe } from '@jest/globals';
import { taskEventBusContract } from '@mcp-tasks/nestjs/testing';
import { startRedis } from '../support/redis.js';
import { busHarness, redisBus } from './bus-harnesses.js';

describe('RedisTaskEventBus: the bus contract', () =>
  taskEventBusContract(async () => {
    const redis = await startRedis();
    return busHarness(
      redis.url,
      (url) => redisBus(url),
      () => redis.stop(),
    );
  }));
