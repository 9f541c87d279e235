import type pg from 'pg';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import { DataSourceTaskStore } from '../store/data-source-task.store.js';
import type { TaskStore } from '../store/task-store.interface.js';
import { LocalTaskEventBus } from './local-task-event.bus.js';
import type { PostgresBusConfig, PostgresConnectionConfig } from './postgres-bus.config.js';
import { PostgresTaskEventBus } from './postgres-task-event.bus.js';
import { isTaskEventBus, type TaskEventBus } from './task-event-bus.interface.js';

/** The bus the `bus` option asks for; `{ type: 'postgres' }` without a connection borrows the TypeORM store's. */
export async function createTaskEventBus(
  bus: TaskEventBus | PostgresBusConfig | undefined,
  store: TaskStore,
): Promise<TaskEventBus> {
  if (isTaskEventBus(bus)) return bus;
  if (!bus) return new LocalTaskEventBus();
  if (!bus.connection && !(store instanceof DataSourceTaskStore)) {
    throw new Error(
      'McpTasksModule: invalid options: bus { type: "postgres" } needs a connection,' +
        ' or store { type: "typeorm" } on PostgreSQL',
    );
  }
  const driver = cjsExports<typeof pg>(await loadPeer('pg', 'bus { type: "postgres" }'));
  if (bus.connection) return new PostgresTaskEventBus(driver, { connection: bus.connection, channel: bus.channel });
  const source = store as DataSourceTaskStore;
  return new PostgresTaskEventBus(driver, {
    connection: async () => pgConfigOf(await source.dataSource()),
    channel: bus.channel,
  });
}

type PgOptions = {
  type: string;
  url?: string;
  host?: string;
  port?: number;
  username?: string;
  password?: string | (() => string);
  database?: string;
};

/** pg client settings from a TypeORM PostgreSQL DataSource's options. */
function pgConfigOf(ds: { options: unknown }): string | PostgresConnectionConfig {
  const o = ds.options as PgOptions;
  if (o.type !== 'postgres')
    throw new Error(`McpTasksModule: bus { type: "postgres" } needs a PostgreSQL store (the DataSource is ${o.type})`);
  if (o.url) return o.url;
  return {
    host: o.host,
    port: o.port,
    user: o.username,
    password: typeof o.password === 'function' ? o.password() : o.password,
    database: o.database,
  };
}
