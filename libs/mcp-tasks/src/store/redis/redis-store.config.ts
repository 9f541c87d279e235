/**
 * Where `store: { type: 'redis' }` connects when given no `url` nor `client`: the settings ioredis takes.
 * @publicApi
 */
export interface RedisConnectionSettings {
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 6379 */
  port?: number;
  /** ACL user (Redis 6+). @default none (the `default` user) */
  username?: string;
  /** @default none */
  password?: string;
  /** Logical database number. @default 0 */
  db?: number;
  /** TLS options (node `tls.connect`); `{}` for TLS with the defaults. @default none (plain TCP) */
  tls?: Record<string, unknown>;
}

/**
 * The `store: { type: 'redis' }` option: tasks in Redis, shared by every instance that connects to the same server
 * and prefix. Give one of `url`, `connection` or `client` (none: `redis://127.0.0.1:6379`).
 * @publicApi
 */
export interface RedisStoreConfig {
  type: 'redis';
  /** `redis://[user:password@]host:port[/db]` (`rediss://` for TLS). @default none */
  url?: string;
  /** Connection settings, when not a `url`. @default none */
  connection?: RedisConnectionSettings;
  /**
   * The app's own ioredis client (a `Redis` instance, not a `Cluster`): the store sends its commands on it and
   * leaves it open on shutdown (the app closes it). @default none (the store opens a connection and closes it)
   */
  client?: unknown;
  /**
   * What every key of the store starts with: stores with different prefixes on one server do not see each
   * other's tasks. Non-empty. @default 'mcp-tasks:'
   */
  keyPrefix?: string;
}

/** Whether `value` is a `store: { type: 'redis' }` configuration. */
export const isRedisStoreConfig = (value: unknown): value is RedisStoreConfig =>
  (value as { type?: unknown } | undefined)?.type === 'redis';

/** What is wrong with a Redis store configuration, naming the option, or `undefined`. */
export function redisStoreProblem(c: RedisStoreConfig): string | undefined {
  const given = [c.url, c.connection, c.client].filter((v) => v !== undefined).length;
  if (given > 1) return 'store { type: "redis" } takes one of url, connection or client';
  if (c.url !== undefined && (typeof c.url !== 'string' || !/^rediss?:\/\//.test(c.url)))
    return `store.url must be a redis:// or rediss:// URL (got ${String(c.url)})`;
  if (c.connection !== undefined && (typeof c.connection !== 'object' || c.connection === null))
    return 'store.connection must be an object ({ host, port, … })';
  const client = c.client as { evalsha?: unknown; defineCommand?: unknown } | undefined;
  if (client !== undefined && (typeof client?.evalsha !== 'function' || typeof client.defineCommand !== 'function'))
    return 'store.client must be an ioredis client (new Redis(…))';
  if (c.keyPrefix !== undefined && (typeof c.keyPrefix !== 'string' || c.keyPrefix.length === 0))
    return `store.keyPrefix must be a non-empty string (got ${JSON.stringify(c.keyPrefix)})`;
  return undefined;
}
