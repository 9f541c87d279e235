import { TableColumn, type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `mcp_tasks.upstream`: the upstream task a gateway task mirrors (JSON, null for every other task). No index: the
 * lease queries already narrow by status and lease expiry, and this column only splits what they find.
 * @publicApi
 */
export class AddMcpTasksUpstream1796131508732 implements MigrationInterface {
  readonly name = 'AddMcpTasksUpstream1796131508732';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.addColumn('mcp_tasks', new TableColumn({ name: 'upstream', type: 'json', isNullable: true }));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropColumn('mcp_tasks', 'upstream');
  }
}
