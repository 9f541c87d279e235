import type { PostgresConnectionConfig } from '../store/postgres-connection.config.js';

/**
 * The `bus: { type: 'postgres' }` option: LISTEN/NOTIFY between instances, on a connection of its own.
 * @publicApi
 */
export interface PostgresBusConfig {
  type: 'postgres';
  /**
   * A URL or `pg` client settings for the bus's LISTEN connection.
   * @default the store's own PostgreSQL database (`SharedTaskStore.postgresConnection`: the TypeORM store on
   * PostgreSQL has it); a store without it fails startup
   */
  connection?: string | PostgresConnectionConfig;
  /**
   * The NOTIFY channel (a PostgreSQL identifier: lower case, digits, underscores).
   * @default 'mcp_tasks'
   */
  channel?: string;
}
