import type { McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import type { ClusterStore } from '../fixtures/cluster-app.js';
import { startNats } from '../support/nats.js';
import { startPostgres } from '../support/postgres.js';
import { startRedis } from '../support/redis.js';
import { postgresTasks } from './postgres-tasks.reader.js';
import { redisTasks } from './redis-tasks.reader.js';
import type { StoredTasks } from './stored-tasks.reader.js';

/**
 * The shared stores. Memory and SQLite are not here: a memory store is one process's, and SQLite is one node's file
 * (instances on one machine only), so neither makes a cluster of separate machines.
 */
export type StoreKind = 'postgres' | 'redis';
/** The buses that relay between machines. PostgreSQL's needs the PostgreSQL store (it uses its database). */
export type BusKind = 'postgres' | 'redis' | 'nats';

/** The servers one store × bus pair runs on, and how instances (in-process and the demo) reach them. */
export interface PairBackend {
  store: ClusterStore;
  bus: NonNullable<McpTasksModuleOptions['bus']>;
  /** The demo's environment (src/demo-storage.ts) for the same store and bus. */
  demoEnv: Record<string, string>;
  /** The store, read directly. */
  stored: StoredTasks;
  stop(): Promise<void>;
}

/** Starts the servers the pair needs, at once, each shared by store and bus where they are the same. */
export async function startBackend(store: StoreKind, bus: BusKind): Promise<PairBackend> {
  const [pg, redis, nats] = await Promise.all([
    store === 'postgres' ? startPostgres() : undefined,
    store === 'redis' || bus === 'redis' ? startRedis() : undefined,
    bus === 'nats' ? startNats() : undefined,
  ]);
  const stored = pg ? await postgresTasks(pg.url) : await redisTasks(redis!.url);
  const demoEnv: Record<string, string> = { MCP_STORE: store, MCP_BUS: bus };
  if (pg) demoEnv.DATABASE_URL = pg.url;
  if (redis) demoEnv.REDIS_URL = redis.url;
  if (nats) demoEnv.NATS_URL = nats.url;
  return {
    store: pg ? { type: 'postgres', url: pg.url } : { type: 'redis', url: redis!.url },
    bus: bus === 'postgres' ? { type: 'postgres' } : { type: bus, connection: (bus === 'nats' ? nats : redis)!.url },
    demoEnv,
    stored,
    stop: async () => {
      await stored.close();
      await Promise.all([pg?.stop(), redis?.stop(), nats?.stop()]);
    },
  };
}
