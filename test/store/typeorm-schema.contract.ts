import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { mcpTasksEntities, mcpTasksMigrations, TypeOrmTaskStore } from '@mcp-tasks/nestjs/typeorm';

/**
 * The shipped migration and the entity agree on a database of this kind, so an app that runs the
 * migration gets exactly the schema the store queries. `options` must point at an empty database.
 */
export function typeOrmSchemaContract(options: () => Promise<DataSourceOptions>): void {
  let ds: DataSource | undefined;
  const db = () => {
    if (!ds) throw new Error('schema DataSource failed to open');
    return ds;
  };
  beforeAll(async () => {
    ds = new DataSource({
      ...(await options()),
      entities: mcpTasksEntities,
      migrations: mcpTasksMigrations,
    } as DataSourceOptions);
    await ds.initialize();
  });
  afterAll(async () => ds?.destroy());

  describe('schema', () => {
    it('the migration creates everything the entity maps, with nothing left over to synchronise', async () => {
      const ran = await db().runMigrations();
      expect(ran.map((m) => m.name)).toEqual(mcpTasksMigrations.map((M) => new M().name));
      const pending = await db().driver.createSchemaBuilder().log();
      expect(pending.upQueries.map((q) => q.query)).toEqual([]);
    });

    it('creates the indexes the queries rely on', async () => {
      const runner = db().createQueryRunner();
      try {
        const table = await runner.getTable('mcp_tasks');
        const indexes = Object.fromEntries((table?.indices ?? []).map((i) => [i.name, i.columnNames]));
        expect(indexes).toEqual({
          IDX_mcp_tasks_owner_status: ['owner_key', 'status'],
          IDX_mcp_tasks_expires_at: ['expires_at'],
          IDX_mcp_tasks_status_lease: ['status', 'lease_expires_at'],
        });
      } finally {
        await runner.release();
      }
    });

    it('the migration reverts cleanly', async () => {
      await db().undoLastMigration();
      const runner = db().createQueryRunner();
      try {
        expect(await runner.hasTable('mcp_tasks')).toBe(false);
      } finally {
        await runner.release();
      }
      expect(await db().runMigrations()).toHaveLength(mcpTasksMigrations.length);
    });

    it('the store refuses a database it has no locking strategy for', () => {
      const mysql = { options: { type: 'mysql' } } as unknown as DataSource;
      expect(() => new TypeOrmTaskStore(mysql)).toThrow(/unsupported database type "mysql"/);
    });
  });
}
