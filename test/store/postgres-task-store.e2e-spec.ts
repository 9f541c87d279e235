import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { sqlHarness } from './sql-harness.js';
import { taskStoreContract } from '@mcp-tasks/nestjs/testing';
import { typeOrmSchemaContract } from './typeorm-schema.contract.js';

// The cluster starts before the harnesses open: jest runs beforeAll hooks in declaration order.
let pg: TestPostgres | undefined;
const url = () => {
  if (!pg) throw new Error('test PostgreSQL did not start');
  return pg.url;
};

describe('TypeOrmTaskStore on PostgreSQL', () => {
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(async () => pg?.stop());

  describe('contract', () => {
    // Separate DataSources: the peer is a second node with its own connection pool.
    const jest = { describe, it, expect, beforeAll, afterAll, beforeEach };
    taskStoreContract(() => sqlHarness({ type: 'postgres', url: url() }, true), jest);
  });
  // Its own database: the schema checks drop and recreate the table.
  typeOrmSchemaContract(async () => {
    const admin = await new DataSource({ type: 'postgres', url: url() }).initialize();
    await admin.query('CREATE DATABASE schema_check');
    await admin.destroy();
    return { type: 'postgres', url: url().replace(/\/postgres$/, '/schema_check') };
  });
});
