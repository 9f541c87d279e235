import { startNats } from '../../support/nats.js';
import { startRedis } from '../../support/redis.js';
import type { ThrowawayServer } from '../../support/throwaway-server.js';

export type BrokerKind = 'redis' | 'nats';

/** A throwaway broker for a phase, and the demo settings that point an instance's event bus at it. */
export interface Broker extends ThrowawayServer {
  kind: BrokerKind;
  url: string;
  /** `MCP_BUS` and `REDIS_URL` / `NATS_URL`. */
  busEnv: Record<string, string>;
}

/** Starts `redis-server` (AOF on with `appendonly`) or `nats-server` on a free port (installed when missing). */
export async function startBroker(kind: BrokerKind, o: { appendonly?: boolean } = {}): Promise<Broker> {
  const server = kind === 'redis' ? await startRedis(o) : await startNats();
  const busEnv = { MCP_BUS: kind, [kind === 'redis' ? 'REDIS_URL' : 'NATS_URL']: server.url };
  return { ...server, kind, busEnv };
}
