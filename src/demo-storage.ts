import type { DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';
import type { McpTasksModuleOptions } from '@mcp-tasks/nestjs';

type Options = Partial<McpTasksModuleOptions>;

/**
 * Where the demo keeps tasks, from the environment:
 * - `MCP_STORE=memory` (default): in this process;
 * - `MCP_STORE=sqlite`: durable on one node, in `MCP_SQLITE_FILE` (default `.data/mcp-tasks.sqlite`);
 * - `MCP_STORE=postgres`: shared by instances, at `DATABASE_URL`;
 * - `MCP_STORE=redis`: shared by instances, at `REDIS_URL` (AOF on to survive a Redis restart).
 * Instances sharing a store relay cancels and answers with `MCP_BUS=postgres` (at `DATABASE_URL`), `redis` (at
 * `REDIS_URL`) or `nats` (at `NATS_URL`), and share one `MCP_STATE_SECRET`.
 */
export function demoStorage(): { imports: DynamicModule[]; options: Options } {
  const kind = process.env.MCP_STORE ?? 'memory';
  const shared = { ...secret(), ...demoBus() };
  if (kind === 'memory') return { imports: [], options: shared };
  if (kind === 'redis') return { imports: [], options: { ...shared, store: { type: 'redis', url: url('REDIS_URL') } } };
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
            url: url('DATABASE_URL'),
            extra: { connectionTimeoutMillis: 5_000 },
            ...common,
          })
        : unknown('MCP_STORE', kind, 'memory, sqlite, postgres or redis');
  return { imports: [typeorm], options: { ...shared, store: { type: 'typeorm' } } };
}

const secret = (): Options =>
  process.env.MCP_STATE_SECRET ? { requestStateSecret: process.env.MCP_STATE_SECRET } : {};

/**
 * The bus named by `MCP_BUS`, if any. The PostgreSQL bus uses the TypeORM connection's database. `MCP_BUS_PREFIX`
 * keeps clusters sharing a broker apart (the PostgreSQL bus's `channel`, the others' `prefix`).
 */
function demoBus(): Options {
  const kind = process.env.MCP_BUS;
  const prefix = process.env.MCP_BUS_PREFIX || undefined;
  if (kind === undefined || kind === '') return {};
  if (kind === 'postgres') return { bus: { type: 'postgres', channel: prefix } };
  if (kind === 'redis') return { bus: { type: 'redis', connection: url('REDIS_URL'), prefix } };
  if (kind === 'nats') return { bus: { type: 'nats', connection: url('NATS_URL'), prefix } };
  return unknown('MCP_BUS', kind, 'postgres, redis or nats');
}

const url = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required with MCP_STORE=${process.env.MCP_STORE} MCP_BUS=${process.env.MCP_BUS}`);
  return v;
};

const unknown = (name: string, kind: string, allowed: string): never => {
  throw new Error(`${name} must be ${allowed} (got ${kind})`);
};
