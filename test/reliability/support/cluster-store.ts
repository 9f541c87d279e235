import { type Broker, startBroker } from './broker.js';
import type { RunContext } from './context.js';
import { pgView, redisView, type StoreView } from './store-view.js';

export type StoreKind = 'postgres' | 'redis';

/** Where a phase's cluster keeps its tasks, and how the suite reads them back. */
export interface ClusterStore {
  kind: StoreKind;
  /** `startCluster`'s `databaseUrl` (PostgreSQL store), else undefined. */
  databaseUrl?: string;
  /** The instances' store and bus settings. */
  env: Record<string, string>;
  view: StoreView;
  /** The PostgreSQL database holding `rel_durable`'s ledger (the store's own database on PostgreSQL). */
  ledgerDb: string;
  /** The Redis server of a Redis store. */
  redis?: Broker;
  stop(): Promise<void>;
}

/**
 * A fresh store for a phase: a PostgreSQL database (and the PostgreSQL bus), or a throwaway Redis server (the Redis
 * store and bus; AOF on with `appendonly`) with a PostgreSQL database beside it for the fixture's ledger only.
 */
export async function clusterStore(
  ctx: RunContext,
  kind: StoreKind,
  name: string,
  o: { appendonly?: boolean } = {},
): Promise<ClusterStore> {
  if (kind === 'postgres') {
    const db = await ctx.database(name);
    const view = pgView(db);
    return { kind, databaseUrl: db, env: {}, view, ledgerDb: db, stop: () => view.close() };
  }
  const ledgerDb = await ctx.database(`${name}_ledger`);
  const redis = await startBroker('redis', o);
  const view = redisView(redis.url);
  return {
    kind,
    env: { MCP_STORE: 'redis', ...redis.busEnv, REL_LEDGER_URL: ledgerDb },
    view,
    ledgerDb,
    redis,
    stop: async () => {
      await view.close();
      await redis.stop();
    },
  };
}
