import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tags each owner key earlier releases wrote — the bare JSON array `["subject","server","client","resource"]` — with
 * its version, `v1:`, as this release writes them. The SQL states the format as of this migration (a later format
 * comes with a migration of its own). Keys an older instance writes after it ran, during a rolling deploy, stay bare:
 * the library reads them as the same owner. `down` strips the tag again, for going back to a release without it.
 * One UPDATE of every such row: each row is written anew, with its owner indexes.
 * @publicApi
 */
export class VersionMcpTasksOwnerKeys1796215433000 implements MigrationInterface {
  readonly name = 'VersionMcpTasksOwnerKeys1796215433000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`UPDATE mcp_tasks SET owner_key = 'v1:' || owner_key WHERE SUBSTR(owner_key, 1, 1) = '['`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE mcp_tasks SET owner_key = SUBSTR(owner_key, 4) WHERE SUBSTR(owner_key, 1, 4) = 'v1:['`,
    );
  }
}
