/**
 * The part of an ioredis client the store uses (its own type, so the library's typings need no ioredis).
 * Scripts are registered with `defineCommand`: ioredis sends them by EVALSHA, and the source once when the
 * server does not have it (a new or restarted server).
 */
export interface RedisClient {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
  connect(): Promise<void>;
  once(event: 'error', listener: (err: unknown) => void): unknown;
  on(event: 'error' | 'ready', listener: (err?: unknown) => void): unknown;
  hgetall(key: string): Promise<Record<string, string>>;
  quit(): Promise<unknown>;
  disconnect(): void;
  readonly status: string;
}
