/** Settings of the event bus's own PostgreSQL connection: what the `pg` package's `Client` takes. */
export interface PostgresConnectionConfig {
  host?: string;
  port?: number;
  user?: string;
  password?: string | (() => string | Promise<string>);
  database?: string;
  connectionString?: string;
  ssl?: boolean | Record<string, unknown>;
  [setting: string]: unknown;
}

/** The `bus: { type: 'postgres' }` option: LISTEN/NOTIFY between instances, on a connection of its own. */
export interface PostgresBusConfig {
  type: 'postgres';
  /**
   * A URL or `pg` client settings for the bus's LISTEN connection.
   * @default the PostgreSQL connection of the TypeORM store (`store: { type: 'typeorm' }`)
   */
  connection?: string | PostgresConnectionConfig;
  /**
   * The NOTIFY channel (a PostgreSQL identifier: lower case, digits, underscores).
   * @default 'mcp_tasks'
   */
  channel?: string;
}
