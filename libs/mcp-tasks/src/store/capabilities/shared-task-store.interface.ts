import type { PostgresConnectionConfig } from '../postgres-connection.config.js';
import type { TaskStore } from '../task-store.interface.js';

/**
 * Capability: the store's tasks are shared across processes — every process that opens the same backing data (a
 * database) reads and writes the same tasks, as `TypeOrmTaskStore` does. What depends on it: with the default
 * in-process bus, the shared-store warning looks for another instance only in such a store (it also needs
 * `TaskQueries`); `bus: { type: 'postgres' }` without a `connection` LISTENs on the store's database, which needs
 * `postgresConnection` (without it, startup fails naming both). Contract: the `shared` part of
 * `taskStoreContract`.
 * @publicApi
 */
export interface SharedTaskStore {
  /** The declaration itself: `true`. */
  readonly sharedAcrossProcesses: true;
  /**
   * Settings of a connection to the store's database when it is PostgreSQL (rejects, saying why, when it is
   * not): the LISTEN connection of `bus: { type: 'postgres' }` without a `connection` of its own.
   */
  postgresConnection?(): Promise<string | PostgresConnectionConfig>;
}

/** Whether `store` declares itself shared across processes (`SharedTaskStore`). */
export const isSharedTaskStore = (store: TaskStore): store is TaskStore & SharedTaskStore =>
  (store as Partial<SharedTaskStore>).sharedAcrossProcesses === true;
