/**
 * `ioredis` options for the bus's connections (its `RedisOptions`, passed through as given): typed here so that the
 * library's typings need no `ioredis`.
 * @publicApi
 */
export interface RedisBusConnectionOptions {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  db?: number;
  /** `tls: {}` for TLS (what a `rediss://` URL turns on). */
  tls?: object;
  /** Any other `ioredis` option (`sentinels`, `name`, `retryStrategy`, …). */
  [option: string]: unknown;
}

/**
 * The part of the app's own `ioredis` client the bus uses (an `ioredis` `Redis` fits).
 * @publicApi
 */
export interface RedisBusClient {
  /** A new connection with the client's settings: the bus subscribes on it. */
  duplicate(override?: object): unknown;
  publish(channel: string, message: string): Promise<number>;
  /** `'ready'` while connected. */
  readonly status: string;
}
