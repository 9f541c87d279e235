import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqlHarness } from './sql-harness.js';
import { NO_LIMITS, T0, newTask, taskStoreContract } from '@mcp-tasks/nestjs/testing';
import { typeOrmSchemaContract } from './typeorm-schema.contract.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sqlite-'));
// A file, not :memory:, so the journal and locking are the ones production gets.
const options = { type: 'better-sqlite3', database: join(dir, 'tasks.sqlite'), enableWAL: true } as const;

describe('TypeOrmTaskStore on better-sqlite3', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // One connection per file in a process: the peer shares the DataSource (a second one would block
  // this thread inside SQLite's busy wait while the first holds the write lock).
  const jest = { describe, it, expect, beforeAll, afterAll, beforeEach };
  taskStoreContract(() => sqlHarness(options, false), jest, { shared: true });
  typeOrmSchemaContract(async () => ({ ...options, database: join(dir, 'schema.sqlite') }));
});

describe('TypeOrmTaskStore on better-sqlite3: writes asked for together share one commit', () => {
  it('a write that fails fails alone: the others sent with it are committed, each caller hears its own', async () => {
    const h = await sqlHarness({ ...options, database: join(dir, 'group.sqlite') }, false);
    try {
      const first = newTask();
      await h.store.create(first, NO_LIMITS);
      const [a, dup, b] = [newTask(), { ...newTask(), id: first.id }, newTask()];
      const outcomes = await Promise.allSettled([a, dup, b].map((t) => h.store.create(t, NO_LIMITS)));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((await h.store.get(a.id, T0))?.id).toBe(a.id);
      expect((await h.store.get(b.id, T0))?.id).toBe(b.id);
      expect((await h.store.get(first.id, T0))?.tool).toBe(first.tool);
      expect(await h.countAll()).toBe(3);
    } finally {
      await h.close();
    }
  });
});
