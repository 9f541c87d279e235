import { DataSource, type DataSourceOptions } from 'typeorm';
import { mcpTasksEntities, mcpTasksMigrations, TypeOrmTaskStore } from '@mcp-tasks/nestjs/typeorm';
import type { StoreHarness } from '@mcp-tasks/nestjs/testing';

export interface SqlHarness extends StoreHarness {
  dataSource: DataSource;
}

/**
 * A TypeORM store on `options`, schema created by the shipped migration. With `separatePeer` the peer
 * store gets its own DataSource (its own connections: a second node); otherwise it shares ours.
 */
export async function sqlHarness(options: DataSourceOptions, separatePeer: boolean): Promise<SqlHarness> {
  const open = async () => {
    const ds = new DataSource({
      ...options,
      entities: mcpTasksEntities,
      migrations: mcpTasksMigrations,
    } as DataSourceOptions);
    return ds.initialize();
  };
  const dataSource = await open();
  await dataSource.runMigrations();
  const peerSource = separatePeer ? await open() : dataSource;
  const $ = (n: number) => (options.type === 'postgres' ? `$${n}` : '?');
  const scalar = async (sql: string, params: unknown[] = []) => Number((await dataSource.query(sql, params))[0].n);
  return {
    dataSource,
    store: new TypeOrmTaskStore(dataSource),
    peer: new TypeOrmTaskStore(peerSource),
    countLive: (owner, now) =>
      scalar(
        `SELECT COUNT(*) AS n FROM mcp_tasks WHERE owner_key = ${$(1)} AND status IN ('working', 'input_required')
         AND (expires_at IS NULL OR expires_at > ${$(2)})`,
        [owner, now],
      ),
    countAll: () => scalar('SELECT COUNT(*) AS n FROM mcp_tasks'),
    reset: async () => void (await dataSource.query('DELETE FROM mcp_tasks')),
    close: async () => {
      if (peerSource !== dataSource) await peerSource.destroy();
      await dataSource.destroy();
    },
  };
}
