import { Logger } from '@nestjs/common';
import { cjsExports, loadPeer } from '../../peers/optional-peer.js';
import type { RedisClient } from './redis-client.interface.js';
import type { RedisStoreConfig } from './redis-store.config.js';

type RedisConstructor = new (...args: unknown[]) => RedisClient;

/**
 * The client a `store: { type: 'redis' }` sends its commands on: the app's own, or one opened here from `url` or
 * `connection` (ioredis, loaded only now: an app without Redis does not install it), connected before startup goes
 * on — a server that cannot be reached fails startup, naming the store. `owned`: the store closes it on shutdown.
 */
export async function redisClientFor(config: RedisStoreConfig): Promise<{ client: RedisClient; owned: boolean }> {
  if (config.client !== undefined) return { client: config.client as RedisClient, owned: false };
  const ns = await loadPeer<unknown>('ioredis', 'store { type: "redis" }');
  const Redis = (ns as { Redis?: RedisConstructor }).Redis ?? cjsExports<RedisConstructor>(ns);
  // Once up, commands wait while the connection is down and go out when it is back (ioredis's offline queue): a
  // Redis restart shows as slower calls; a call still waiting after its retries rejects.
  const settings = { maxRetriesPerRequest: 20, ...config.connection, lazyConnect: true };
  const client = config.url ? new Redis(config.url, settings) : new Redis(settings);
  // connect() rejects with "Connection is closed"; the socket's own error says why (ECONNREFUSED, NOAUTH, …).
  let cause: unknown;
  client.once('error', (err: unknown) => (cause = err));
  try {
    await client.connect();
  } catch (err) {
    client.disconnect();
    const first = cause ?? err;
    const why = first instanceof Error ? first.message : String(first);
    throw new Error(`McpTasksModule: store { type: "redis" } could not connect to Redis: ${why}`);
  }
  warnWhenDown(client);
  return { client, owned: true };
}

/**
 * Once up, a lost connection is logged once per outage: without an `error` listener ioredis prints every failed
 * reconnect to stderr as an "Unhandled error event".
 */
function warnWhenDown(client: RedisClient): void {
  const logger = new Logger('McpTasks');
  let down = false;
  client.on('error', (err) => {
    if (down) return;
    down = true;
    const why = err instanceof Error ? err.message : String(err);
    logger.warn(`store { type: "redis" } lost its connection (${why}); commands wait until it is back`);
  });
  client.on('ready', () => (down = false));
}
