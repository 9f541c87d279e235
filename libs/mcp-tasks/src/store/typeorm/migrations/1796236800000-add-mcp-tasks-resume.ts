import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

const COLUMNS = [
  // Which run of the tool a task is at; every existing task is at its first.
  new TableColumn({ name: 'attempt', type: 'integer', isNullable: false, default: 1 }),
  // The tool's last checkpoint (JSON).
  new TableColumn({ name: 'checkpoint', type: 'json', isNullable: true }),
  // Set for tasks of tools that may run again from the start when their instance stops.
  new TableColumn({ name: 'resume', type: 'json', isNullable: true }),
];

/**
 * Resumable tasks: `attempt` (not null, default 1), `checkpoint` and `resume` (nullable JSON). On PostgreSQL 11 and
 * later, adding a column with a constant default rewrites no row; SQLite (through TypeORM) copies the table once.
 * No index: a takeover looks for lapsed leases through the status and lease index, as reclaiming does.
 * @publicApi
 */
export class AddMcpTasksResume1796236800000 implements MigrationInterface {
  readonly name = 'AddMcpTasksResume1796236800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumns('mcp_tasks', COLUMNS);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumns('mcp_tasks', COLUMNS);
  }
}
