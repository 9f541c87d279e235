import { TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

const INDEXES = [
  // Newest-first pages of the task listing (ties broken by id), and its age filter.
  new TableIndex({ name: 'IDX_mcp_tasks_created', columnNames: ['created_at', 'id'] }),
  // The same, filtered by tool.
  new TableIndex({ name: 'IDX_mcp_tasks_tool_created', columnNames: ['tool', 'created_at'] }),
];

/**
 * Indexes for `listTasks` (the operator console). Neither column ever changes after the insert, so
 * they add nothing to the cost of a task's updates. On PostgreSQL the build blocks writes to
 * `mcp_tasks` while it runs; on a very large table, create the same indexes by hand first with
 * `CREATE INDEX CONCURRENTLY` under these names — indexes that exist already are left as they are.
 * @publicApi
 */
export class AddMcpTasksListingIndexes1796112000000 implements MigrationInterface {
  readonly name = 'AddMcpTasksListingIndexes1796112000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const table = await queryRunner.getTable('mcp_tasks');
    const existing = new Set((table?.indices ?? []).map((i) => i.name));
    for (const index of INDEXES) if (!existing.has(index.name)) await queryRunner.createIndex('mcp_tasks', index);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const index of INDEXES) await queryRunner.dropIndex('mcp_tasks', index.name!);
  }
}
