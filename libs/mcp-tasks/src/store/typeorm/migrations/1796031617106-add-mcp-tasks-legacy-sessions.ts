import { TableColumn, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const COLUMNS = [
  // The wire that created the task; NULL is 2026-07-28, so existing rows need no rewrite.
  new TableColumn({ name: 'generation', type: 'text', isNullable: true }),
  // The 2025-11-25 session that created the task.
  new TableColumn({ name: 'session', type: 'text', isNullable: true }),
  // Which open stream delivers a 2025-11-25 task's input requests.
  new TableColumn({ name: 'input_channel', type: 'json', isNullable: true }),
];

// One owner's tasks newest first: 2025-11-25 `tasks/list`.
const INDEX = new TableIndex({ name: 'IDX_mcp_tasks_owner_created', columnNames: ['owner_key', 'created_at', 'id'] });

/**
 * What serving 2025-11-25 clients needs: three nullable columns (no rewrite of existing rows) and the index of
 * `tasks/list`. On PostgreSQL the index build blocks writes to `mcp_tasks` while it runs; on a very large table,
 * create it by hand first with `CREATE INDEX CONCURRENTLY` under this name — an existing index is kept.
 * @publicApi
 */
export class AddMcpTasksLegacySessions1796031617106 implements MigrationInterface {
  readonly name = 'AddMcpTasksLegacySessions1796031617106';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('mcp_tasks', COLUMNS);
    const table = await queryRunner.getTable('mcp_tasks');
    if (!(table?.indices ?? []).some((i) => i.name === INDEX.name)) await queryRunner.createIndex('mcp_tasks', INDEX);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropIndex('mcp_tasks', INDEX.name!);
    await queryRunner.dropColumns('mcp_tasks', COLUMNS);
  }
}
