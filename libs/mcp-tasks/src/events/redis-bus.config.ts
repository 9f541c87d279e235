import type { RedisBusClient, RedisBusConnectionOptions } from './redis-bus.client.js';

/**
 * The `bus: { type: 'redis' }` option: Redis pub/sub between instances (`ioredis`, an optional peer). Each task's
 * events go on a channel of their own, heard only by the instances that follow the task.
 * @publicApi
 */
export interface RedisBusConfig {
  type: 'redis';
  /**
   * A `redis://` URL, `ioredis` options, or the app's own `ioredis` client. The bus publishes on the app's client
   * and subscribes on a duplicate of it (closed on shutdown; the app's client is left open); from a URL or options
   * it opens both connections itself. Required.
   */
  connection: string | RedisBusConnectionOptions | RedisBusClient;
  /**
   * What every channel's name starts with (`<prefix>:t:<topic>`, `<prefix>:all`): apps sharing a Redis server
   * keep apart by it.
   * @default 'mcp-tasks'
   */
  prefix?: string;
}
