import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'nats';
import pg from 'pg';
import { LocalTaskEventBus } from '@mcp-tasks/nestjs';
import type { BusHarness } from '@mcp-tasks/nestjs/testing';
// Internal: what the `bus` option builds (not exported on their own).
import { NatsTaskEventBus } from '../../libs/mcp-tasks/src/events/nats-task-event.bus.js';
import { PostgresTaskEventBus } from '../../libs/mcp-tasks/src/events/postgres-task-event.bus.js';
import { RedisTaskEventBus } from '../../libs/mcp-tasks/src/events/redis-task-event.bus.js';
import type { TaskEventBus } from '../../libs/mcp-tasks/src/events/task-event-bus.interface.js';
import { slowLink, type SlowLink } from '../support/slow-link.js';
import { until } from '../support/until.js';

type Started = TaskEventBus & { onModuleInit(): Promise<void>; onApplicationShutdown(): Promise<void> };

/**
 * Instances made by `make` on the broker at `url`, each through a relay of its own (so one can be `cut`), each
 * started and connected before `open` returns; `stop` ends the broker.
 */
export function busHarness(
  url: string,
  make: (url: string) => Started,
  stop: () => Promise<void> = async () => {},
): BusHarness {
  const opened = new Map<TaskEventBus, { bus: Started; link: SlowLink }>();
  const { hostname, port } = new URL(url);
  return {
    open: async () => {
      const link = await slowLink(hostname, Number(port), 0);
      const bus = make(link.via(url));
      opened.set(bus, { bus, link });
      await bus.onModuleInit();
      await until('the bus to connect', () => bus.health?.().connected !== false, 20_000);
      return bus;
    },
    cut: async (bus) => {
      const link = opened.get(bus)?.link;
      if (!link) throw new Error('bus harness: not an instance it opened');
      await link.cut();
      return () => link.restore();
    },
    close: async () => {
      for (const { bus, link } of opened.values()) {
        await bus.onApplicationShutdown();
        await link.close();
      }
      opened.clear();
      await stop();
      // A client's disconnect arms a timer until its socket closes, which a relayed one takes a moment longer to do.
      await sleep(300);
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
