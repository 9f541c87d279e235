import { freePort } from '../../support/free-port.js';
import { DEMO_JWT_SECRET, DemoProcess } from './demo-process.js';
import { demoToken } from '../../../src/demo-token.js';

export const STATE_SECRET = 'reliability-shared-request-state-secret';

export interface Cluster {
  instances: DemoProcess[];
  /** The address every instance answers for (its auth resource). */
  publicPort: number;
  /** A token for `sub` through OAuth client `client` (auth mode). */
  token(sub: string, client?: string): string;
  /**
   * Starts one more instance into the running cluster (a rolling deploy's replacement) with the cluster's
   * settings, appended to `instances` (so `stop()` stops it too); resolves once its port accepts connections.
   */
  join(name: string): Promise<DemoProcess>;
  stop(): Promise<void>;
}

/**
 * Demo instances on one PostgreSQL database with the PostgreSQL bus (or on the store and bus `env` names, e.g. a
 * `ClusterStore`'s) and a shared requestState secret.
 * With `auth`, they answer for one public address (as behind one load balancer), so a user's token
 * works on every instance and their tasks are theirs on every instance.
 */
export async function startCluster(o: {
  name: string;
  /** The PostgreSQL store's database; none when `env` names another store. */
  databaseUrl?: string;
  auth?: boolean;
  count?: number;
  env?: Record<string, string>;
  /** Settings of one instance only, by its name (e.g. `REL_INSTANCE`, the name the fixture's ledger writes). */
  instanceEnv?: (name: string) => Record<string, string>;
}): Promise<Cluster> {
  const publicPort = await freePort();
  const instances: DemoProcess[] = [];
  const env = {
    MCP_STORE: 'postgres',
    ...(o.databaseUrl ? { DATABASE_URL: o.databaseUrl } : {}),
    MCP_BUS: 'postgres',
    MCP_STATE_SECRET: STATE_SECRET,
    ...(o.auth ? { MCP_AUTH: '1' } : {}),
    ...o.env,
  };
  const start = async (name: string) =>
    DemoProcess.start({
      name,
      env: { ...env, ...o.instanceEnv?.(name) },
      ...(o.auth ? { port: publicPort, listenPort: await freePort() } : {}),
    });
  // One after the other: the first runs the migration.
  for (let i = 0; i < (o.count ?? 2); i++) instances.push(await start(`${o.name}-${String.fromCharCode(97 + i)}`));
  return {
    instances,
    publicPort,
    token: (sub, client = 'load-client') => demoToken(publicPort, { sub, client, secret: DEMO_JWT_SECRET }),
    join: async (name) => {
      const joined = await start(name);
      instances.push(joined);
      return joined;
    },
    stop: async () => {
      await Promise.all(instances.map((i) => i.stop()));
    },
  };
}
