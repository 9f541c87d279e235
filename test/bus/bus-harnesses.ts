import { Redis } from 'ioredis';
import { connect } from 'nats';
import pg from 'pg';
import { LocalTaskEventBus } from '@mcp-tasks/nestjs';
import type { BusHarness } from '@mcp-tasks/nestjs/testing';
// Internal: what the `bus` option builds (not exported on their own).
import { NatsTaskEventBus } from '../../libs/mcp-tasks/src/events/nats-task-event.bus.js';
import { PostgresTaskEventBus } from '../../libs/mcp-tasks/src/events/postgres-task-event.bus.js';
import { RedisTaskEventBus } from '../../libs/mcp-tasks/src/events/redis-task-event.bus.js';
import type { TaskEventBus } from '../../libs/mcp-tasks/src/events/task-event-bus.interface.js';
import { until } from '../support/until.js';

type Started = TaskEventBus & { onModuleInit(): Promise<void>; onApplicationShutdown(): Promise<void> };

/** Instances made by `make`, each started and connected before `open` returns; `stop` ends the broker. */
export function busHarness(make: () => Started, stop: () => Promise<void> = async () => {}): BusHarness {
  const opened: Started[] = [];
  return {
    open: async () => {
      const bus = make();
      opened.push(bus);
      await bus.onModuleInit();
      await until('the bus to connect', () => bus.health?.().connected !== false, 20_000);
      return bus;
    },
    close: async () => {
      for (const bus of opened.splice(0)) await bus.onApplicationShutdown();
      await stop();
    },
  };
}

export const redisBus = (url: string, prefix?: string) =>
  new RedisTaskEventBus(Redis, { connection: url, ...(prefix ? { prefix } : {}) });

export const natsBus = (url: string, prefix?: string) =>
  new NatsTaskEventBus(connect, { connection: url, ...(prefix ? { prefix } : {}) });

export const postgresBus = (url: string) => new PostgresTaskEventBus(pg, { connection: url, reconnectDelay: 50 });

/** The in-process bus: every "instance" is the same object, as a memory store's peer is. */
export function localHarness(): BusHarness {
  const bus = new LocalTaskEventBus();
  return { open: async () => bus, close: async () => undefined };
}
