import { Table, TableIndex, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Creates `mcp_tasks` as `McpTaskEntity` maps it. Written with TypeORM's `Table` API rather than SQL
 * so one migration emits the right DDL on SQLite and PostgreSQL. Frozen: later schema changes get
 * their own migration, never an edit here.
 * @publicApi
 */
export class CreateMcpTasks1795943639786 implements MigrationInterface {
  readonly name = 'CreateMcpTasks1795943639786';

  async up(queryRunner: QueryRunner): Promise<void> {
    const text = (name: string, isNullable = false) => ({ name, type: 'text', isNullable });
    const json = (name: string, isNullable = false) => ({ name, type: 'json', isNullable });
    const epochMs = (name: string, isNullable = false) => ({ name, type: 'bigint', isNullable });
    await queryRunner.createTable(
      new Table({
        name: 'mcp_tasks',
        columns: [
          { ...text('id'), isPrimary: true },
          text('owner_key'),
          text('tool'),
          text('status'),
          text('status_message', true),
          json('input_requests'),
          json('input_responses'),
          json('result', true),
          json('error', true),
          json('required_scopes'),
          epochMs('created_at'),
          epochMs('updated_at'),
          epochMs('expires_at', true),
          text('lease_owner', true),
          epochMs('lease_expires_at', true),
        ],
        indices: [
          // Cap checks count one owner's live tasks.
          new TableIndex({ name: 'IDX_mcp_tasks_owner_status', columnNames: ['owner_key', 'status'] }),
          // The sweeper deletes by expiry.
          new TableIndex({ name: 'IDX_mcp_tasks_expires_at', columnNames: ['expires_at'] }),
          // The total cap counts by status; reclaiming looks for live tasks with a lapsed lease.
          new TableIndex({ name: 'IDX_mcp_tasks_status_lease', columnNames: ['status', 'lease_expires_at'] }),
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('mcp_tasks');
  }
}
