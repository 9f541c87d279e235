import type { DataSource } from 'typeorm';
import { PostgresDialect } from './postgres.dialect.js';
import { SqliteDialect } from './sqlite.dialect.js';
import type { StoreDialect } from './store-dialect.js';

/**
 * The dialect of the DataSource's database; other databases are refused. SQLite means better-sqlite3: the
 * store runs its statements on that driver's own synchronous API (the `sqlite` driver has none).
 */
export function dialectFor(dataSource: DataSource): StoreDialect {
  switch (dataSource.options.type) {
    case 'postgres':
      return new PostgresDialect(dataSource);
    case 'better-sqlite3':
      return new SqliteDialect(dataSource);
    default:
      throw new Error(
        `TypeOrmTaskStore: unsupported database type "${dataSource.options.type}" (use postgres or better-sqlite3)`,
      );
  }
}
