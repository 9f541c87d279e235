/**
 * Settings of a PostgreSQL connection: what the `pg` package's `Client` takes.
 * @publicApi
 */
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
