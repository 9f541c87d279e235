import type { ModuleRef } from '@nestjs/core';
import type pg from 'pg';
import { LocalTaskEventBus } from '../events/local-task-event.bus.js';
import { brokerBusFor } from '../events/broker-bus.factory.js';
import { PostgresTaskEventBus } from '../events/postgres-task-event.bus.js';
import { isTaskEventBus, type TaskEventBus } from '../events/task-event-bus.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import type { SharedTaskStore } from '../store/capabilities/shared-task-store.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';
import { checkStoreRequirements } from './store-requirements.js';
import { storeFor } from './task-store.factory.js';

/** The store and the bus of one registration. */
export interface TaskStorage {
  store: TaskStore;
  bus: TaskEventBus;
}

/**
 * The store and the bus the options ask for, chosen here and nowhere else: the `store` object as given, else a
 * TypeORM store on the app's connection; the `bus` object as given, else the in-process bus, PostgreSQL's (on
 * its own connection, by default one to the store's database), Redis's or NATS's. A feature that needs a capability
 * the store lacks fails startup here (see `checkStoreRequirements`).
 */
export async function createTaskStorage(options: ResolvedOptions, moduleRef: ModuleRef): Promise<TaskStorage> {
  const store = await storeFor(options.store, moduleRef);
  checkStoreRequirements(options, store);
  return { store, bus: await busFor(options.bus, store) };
}

async function busFor(bus: ResolvedOptions['bus'], store: TaskStore): Promise<TaskEventBus> {
  if (isTaskEventBus(bus)) return bus;
  if (!bus) return new LocalTaskEventBus();
  if (bus.type === 'redis' || bus.type === 'nats') return brokerBusFor(bus);
  const driver = cjsExports<typeof pg>(await loadPeer('pg', 'bus { type: "postgres" }'));
  // Without a connection of its own, checkStoreRequirements made sure the store gives one.
  const own = store as TaskStore & Required<SharedTaskStore>;
  const connection = bus.connection ?? (() => own.postgresConnection());
  return new PostgresTaskEventBus(driver, { connection, channel: bus.channel });
}
