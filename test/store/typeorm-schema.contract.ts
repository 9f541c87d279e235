import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource, type DataSourceOptions } from 'typeorm';
import {
  AddMcpTasksListingIndexes1796112000000,
  mcpTasksEntities,
  mcpTasksMigrations,
  TypeOrmTaskStore,
} from '@mcp-tasks/nestjs/typeorm';

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

    it('creates the indexes the queries rely on, columns in order', async () => {
      expect(await indexColumns(db())).toEqual({
        IDX_mcp_tasks_owner_status: ['owner_key', 'status'],
        IDX_mcp_tasks_expires_at: ['expires_at'],
        IDX_mcp_tasks_status_lease: ['status', 'lease_expires_at'],
        IDX_mcp_tasks_created: ['created_at', 'id'],
        IDX_mcp_tasks_tool_created: ['tool', 'created_at'],
        IDX_mcp_tasks_owner_created: ['owner_key', 'created_at', 'id'],
      });
    });

    it('the later migrations add nullable columns to existing rows and keeps an index made by hand', async () => {
      // Back to the first migration's table, as an app that ran only that one has it.
      for (let i = 1; i < mcpTasksMigrations.length; i++) await db().undoLastMigration();
      const $ = (n: number) => (db().options.type === 'postgres' ? `$${n}` : '?');
      await db().query(
        `INSERT INTO mcp_tasks (id, owner_key, tool, status, input_requests, input_responses, required_scopes,
         created_at, updated_at) VALUES (${$(1)}, 'o', 't', 'working', '{}', '{}', '[]', 1, 1)`,
        ['old-row'],
      );
      await db().query('CREATE INDEX "IDX_mcp_tasks_owner_created" ON mcp_tasks (owner_key, created_at, id)');
      expect((await db().runMigrations()).map((m) => m.name)).toEqual(
        mcpTasksMigrations.slice(1).map((M) => new M().name),
      );
      const store = new TypeOrmTaskStore(db());
      const old = await store.get('old-row', 2);
      expect(old).toMatchObject({ id: 'old-row', status: 'working' });
      expect(old?.generation).toBeUndefined();
      expect(old?.session).toBeUndefined();
      expect(old?.upstream).toBeUndefined();
      // Resumable tasks' columns: an earlier task is at its first attempt (absent), with no checkpoint nor resume.
      expect([old?.attempt, old?.checkpoint, old?.resume]).toEqual([undefined, undefined, undefined]);
      expect(await indexColumns(db())).toMatchObject({
        IDX_mcp_tasks_owner_created: ['owner_key', 'created_at', 'id'],
      });
      await db().query(`DELETE FROM mcp_tasks`);
    });

    it('the listing-index migration keeps an index made by hand under its name (e.g. CONCURRENTLY)', async () => {
      // Back to before the listing indexes (the migrations after them first).
      const later = mcpTasksMigrations.length - 1 - mcpTasksMigrations.indexOf(AddMcpTasksListingIndexes1796112000000);
      for (let i = 0; i <= later; i++) await db().undoLastMigration();
      await db().query('CREATE INDEX "IDX_mcp_tasks_created" ON mcp_tasks (created_at, id)');
      expect(await db().runMigrations()).toHaveLength(later + 1);
      const runner = db().createQueryRunner();
      try {
        const names = ((await runner.getTable('mcp_tasks'))?.indices ?? []).map((i) => i.name);
        expect(names).toEqual(expect.arrayContaining(['IDX_mcp_tasks_created', 'IDX_mcp_tasks_tool_created']));
      } finally {
        await runner.release();
      }
    });

    it('the migrations revert cleanly', async () => {
      for (let i = 0; i < mcpTasksMigrations.length; i++) await db().undoLastMigration();
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

/** Each secondary index of `mcp_tasks` with its columns in index order, read from the database's own catalog. */
async function indexColumns(ds: DataSource): Promise<Record<string, string[]>> {
  if (ds.options.type === 'postgres') {
    const rows: { indexname: string; indexdef: string }[] = await ds.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'mcp_tasks'`,
    );
    return Object.fromEntries(
      rows
        .filter((r) => r.indexname.startsWith('IDX_'))
        .map((r) => [r.indexname, /\((.*)\)$/.exec(r.indexdef)![1].split(', ')]),
    );
  }
  const names: { name: string }[] = await ds.query(
    `SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'mcp_tasks' AND name LIKE 'IDX_%'`,
  );
  const entries = [];
  for (const { name } of names) {
    const cols: { seqno: number; name: string }[] = await ds.query(`PRAGMA index_info("${name}")`);
    entries.push([name, cols.sort((a, b) => a.seqno - b.seqno).map((c) => c.name)]);
  }
  return Object.fromEntries(entries);
}
