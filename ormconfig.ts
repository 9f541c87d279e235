import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';

/**
 * DataSource for the TypeORM CLI (`typeorm -d <compiled ormconfig.js> migration:run|revert|show`):
 * PostgreSQL when DATABASE_URL is set, else the SQLite file at SQLITE_PATH (default
 * `data/mcp-tasks.sqlite`). The app builds its own DataSource the same way, adding its entities.
 */
const shared = { entities: mcpTasksEntities, migrations: mcpTasksMigrations, migrationsTableName: 'migrations' };

export default process.env.DATABASE_URL
  ? new DataSource({ type: 'postgres', url: process.env.DATABASE_URL, ...shared })
  : new DataSource({
      type: 'better-sqlite3',
      database: process.env.SQLITE_PATH ?? 'data/mcp-tasks.sqlite',
      // WAL: readers do not block the single writer, and another process's writes wait, not fail.
      enableWAL: true,
      ...shared,
    });
