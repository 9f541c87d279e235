import type { TestNats } from '../../test/support/nats.js';
import type { TestRedis } from '../../test/support/redis.js';
import { launch, type Started } from '../contestants/lineup.js';
import type { Running } from '../contestants/process.js';
import { demo, type Contestant } from '../contestants/registry.js';
import { BUS_NATS, BUS_POSTGRES, BUS_REDIS } from '../report/names.js';
import { BUSES } from './buses.settings.js';
import type { Ctx } from './context.js';

export type BusKind = 'postgres' | 'redis' | 'nats';
export const LABELS: Record<BusKind, string> = { postgres: BUS_POSTGRES, redis: BUS_REDIS, nats: BUS_NATS };
const CLASSES: Record<BusKind, RegExp> = { postgres: /^Postgres/, redis: /^Redis/, nats: /^Nats/ };

/** Where the brokers are, for the instances' environment. */
export interface Brokers {
  redis?: TestRedis;
  nats?: TestNats;
}

/**
 * The demo (bench fixtures) on a PostgreSQL store at `url`, relaying on `bus`, polling the store rarely; `prefix`
 * puts it in a cluster of its own on the same broker (the channel or subject names' start).
 */
export function onBus(
  url: string,
  bus: BusKind,
  brokers: Brokers,
  id: string,
  name = LABELS[bus],
  prefix?: string,
): Contestant {
  const env: Record<string, string> = {
    MCP_STORE: 'postgres',
    DATABASE_URL: url,
    MCP_BUS: bus,
    MCP_STATE_SECRET: 'bench-shared-request-state-secret',
    MCP_POLL_INTERVAL: String(BUSES.pollIntervalMs),
  };
  if (prefix) env.MCP_BUS_PREFIX = prefix;
  if (brokers.redis) env.REDIS_URL = brokers.redis.url;
  if (brokers.nats) env.NATS_URL = brokers.nats.url;
  return demo(name, id, env, { store: /postgres/i, bus: CLASSES[bus] });
}

/** Launches the contestants together; all of them, or throws (stopping those that came up). */
export async function launchAll(ctx: Ctx, cs: Contestant[]): Promise<Running[]> {
  const started = await Promise.all(cs.map((c) => launch(c, ctx.o, ctx.log)));
  const down = started.find((s): s is Started & { ok: false } => !s.ok);
  if (!down) return started.map((s) => (s as Started & { ok: true }).run);
  for (const s of started) if (s.ok) await s.run.stop();
  throw new Error(down.reason);
}
