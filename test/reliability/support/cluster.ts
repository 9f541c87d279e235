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
  stop(): Promise<void>;
}

/**
 * Demo instances on one PostgreSQL database with the PostgreSQL bus and a shared requestState secret.
 * With `auth`, they answer for one public address (as behind one load balancer), so a user's token
 * works on every instance and their tasks are theirs on every instance.
 */
export async function startCluster(o: {
  name: string;
  databaseUrl: string;
  auth?: boolean;
  count?: number;
  env?: Record<string, string>;
}): Promise<Cluster> {
  const publicPort = await freePort();
  const instances: DemoProcess[] = [];
  const env = {
    MCP_STORE: 'postgres',
    DATABASE_URL: o.databaseUrl,
    MCP_BUS: 'postgres',
    MCP_STATE_SECRET: STATE_SECRET,
    ...(o.auth ? { MCP_AUTH: '1' } : {}),
    ...o.env,
  };
  // One after the other: the first runs the migration.
  for (let i = 0; i < (o.count ?? 2); i++) {
    instances.push(
      await DemoProcess.start({
        name: `${o.name}-${String.fromCharCode(97 + i)}`,
        env,
        ...(o.auth ? { port: publicPort, listenPort: await freePort() } : {}),
      }),
    );
  }
  return {
    instances,
    publicPort,
    token: (sub, client = 'load-client') => demoToken(publicPort, { sub, client, secret: DEMO_JWT_SECRET }),
    stop: async () => {
      await Promise.all(instances.map((i) => i.stop()));
    },
  };
}
