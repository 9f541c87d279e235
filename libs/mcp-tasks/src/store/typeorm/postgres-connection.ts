import type { PostgresConnectionConfig } from '../postgres-connection.config.js';

/** The part of a TypeORM DataSource's (public) options a PostgreSQL connection is made from. */
type PgOptions = {
  type: string;
  url?: string;
  host?: string;
  port?: number;
  username?: string;
  password?: string | (() => string);
  database?: string;
};

/** `pg` client settings from a TypeORM DataSource's options; a DataSource on another database is refused. */
export function postgresConnectionOf(dataSource: { options: unknown }): string | PostgresConnectionConfig {
  const o = dataSource.options as PgOptions;
  if (o.type !== 'postgres') throw new Error(`the store's database is ${o.type}, not PostgreSQL`);
  if (o.url) return o.url;
  return {
    host: o.host,
    port: o.port,
    user: o.username,
    password: typeof o.password === 'function' ? o.password() : o.password,
    database: o.database,
  };
}
