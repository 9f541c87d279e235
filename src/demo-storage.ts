import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';
import type { McpTasksModuleOptions } from '@mcp-tasks/nestjs';

/**
 * Where the demo keeps tasks, from the environment:
 * - `MCP_STORE=memory` (default): in this process;
 * - `MCP_STORE=sqlite`: durable on one node, in `MCP_SQLITE_FILE` (default `.data/mcp-tasks.sqlite`);
 * - `MCP_STORE=postgres`: shared by instances, at `DATABASE_URL`; add `MCP_BUS=postgres` so instances
 *   relay cancels and answers, and give them one `MCP_STATE_SECRET`.
 */
export function demoStorage(): { imports: DynamicModule[]; options: Partial<McpTasksModuleOptions> } {
  const kind = process.env.MCP_STORE ?? 'memory';
  const shared = process.env.MCP_STATE_SECRET ? { requestStateSecret: process.env.MCP_STATE_SECRET } : {};
  if (kind === 'memory') return { imports: [], options: shared };
  const common = { entities: mcpTasksEntities, migrations: mcpTasksMigrations, migrationsRun: true };
  const typeorm =
    kind === 'sqlite'
      ? TypeOrmModule.forRoot({
          type: 'better-sqlite3',
          database: process.env.MCP_SQLITE_FILE ?? '.data/mcp-tasks.sqlite',
          enableWAL: true,
          ...common,
        })
      : kind === 'postgres'
        ? TypeOrmModule.forRoot({
            type: 'postgres',
            url: required('DATABASE_URL'),
            extra: { connectionTimeoutMillis: 5_000 },
            ...common,
          })
        : unknown(kind);
  return {
    imports: [typeorm],
    options: {
      ...shared,
      store: { type: 'typeorm' },
      ...(process.env.MCP_BUS === 'postgres' ? { bus: { type: 'postgres' as const } } : {}),
    },
  };
}

const required = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required with MCP_STORE=postgres`);
  return v;
};

const unknown = (kind: string): never => {
  throw new Error(`MCP_STORE must be memory, sqlite or postgres (got ${kind})`);
};
