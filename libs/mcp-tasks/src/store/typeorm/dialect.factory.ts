import type { DataSource } from 'typeorm';
import { PostgresDialect } from './postgres.dialect.js';
import { SqliteDialect } from './sqlite.dialect.js';
import type { StoreDialect } from './store-dialect.js';

/** The dialect of the DataSource's database; other databases are refused. */
export function dialectFor(dataSource: DataSource): StoreDialect {
  // As a string: typeorm 1.x dropped "sqlite" from its type union (the driver name still reads it).
  switch (dataSource.options.type as string) {
    case 'postgres':
      return new PostgresDialect(dataSource);
    case 'better-sqlite3':
    case 'sqlite':
      return new SqliteDialect(dataSource);
    default:
      throw new Error(
        `TypeOrmTaskStore: unsupported database type "${dataSource.options.type}" (use postgres or better-sqlite3)`,
      );
  }
}
