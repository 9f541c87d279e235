import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlHarness } from './sql-harness.js';
import { taskStoreContract } from '@mcp-tasks/nestjs/testing';
import { typeOrmSchemaContract } from './typeorm-schema.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sqlite-'));
// A file, not :memory:, so the journal and locking are the ones production gets.
const options = { type: 'better-sqlite3', database: join(dir, 'tasks.sqlite'), enableWAL: true } as const;

describe('TypeOrmTaskStore on better-sqlite3', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // One connection per file in a process: the peer shares the DataSource (a second one would block
  // this thread inside SQLite's busy wait while the first holds the write lock).
  taskStoreContract(() => sqlHarness(options, false), { describe, it, expect, beforeAll, afterAll, beforeEach });
  typeOrmSchemaContract(async () => ({ ...options, database: join(dir, 'schema.sqlite') }));
});
