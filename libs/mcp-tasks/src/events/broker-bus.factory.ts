import type { NatsBusConfig } from './nats-bus.config.js';
import { NatsTaskEventBus, type NatsConnect } from './nats-task-event.bus.js';
import type { RedisBusConfig } from './redis-bus.config.js';
import { RedisTaskEventBus, type RedisConstructor } from './redis-task-event.bus.js';
import type { TaskEventBus } from './task-event-bus.interface.js';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';

/** The Redis or NATS bus the option asks for, its client package loaded only now (both are optional peers). */
export async function brokerBusFor(config: RedisBusConfig | NatsBusConfig): Promise<TaskEventBus> {
  if (config.type === 'redis') {
    const Redis = cjsExports<RedisConstructor>(await loadPeer('ioredis', 'bus { type: "redis" }'));
    return new RedisTaskEventBus(Redis, { connection: config.connection, prefix: config.prefix });
  }
  const nats = cjsExports<{ connect: NatsConnect }>(await loadPeer('nats', 'bus { type: "nats" }'));
  return new NatsTaskEventBus(nats.connect, { connection: config.connection, prefix: config.prefix });
}
