import type { ModuleRef } from '@nestjs/core';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { redisClientFor } from '../store/redis/redis-client.factory.js';
import { isRedisStoreConfig } from '../store/redis/redis-store.config.js';
import { RedisTaskStore } from '../store/redis/redis-task.store.js';
import { isTaskStore, type TaskStore } from '../store/task-store.interface.js';
import { DataSourceTaskStore } from '../store/typeorm/data-source-task.store.js';

/**
 * The store the `store` option asks for: the object as given, a Redis store (on the app's ioredis client or one of
 * its own; ioredis is loaded only then), else a TypeORM store on the app's connection.
 */
export async function storeFor(config: ResolvedOptions['store'], moduleRef: ModuleRef): Promise<TaskStore> {
  if (isTaskStore(config)) return config;
  if (isRedisStoreConfig(config)) {
    const { client, owned } = await redisClientFor(config);
    return new RedisTaskStore(client, { keyPrefix: config.keyPrefix, owned });
  }
  return DataSourceTaskStore.open(moduleRef, config.dataSource);
}
