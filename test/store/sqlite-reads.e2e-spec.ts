import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SqliteDialect } from '../../libs/mcp-tasks/src/store/typeorm/sqlite.dialect.js';
import { statement } from '../../libs/mcp-tasks/src/store/typeorm/task-sql.js';

const dir = mkdtempSync(join(tmpdir(), 'mcp-sqlite-reads-'));

describe('SQLite dialect: reads on the shared connection', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a read asked for during an open write transaction waits for its commit; with none it answers now', async () => {
    const ds = await new DataSource({ type: 'better-sqlite3', database: join(dir, 'r.sqlite') }).initialize();
    try {
      await ds.query('CREATE TABLE t (v INTEGER, label TEXT)');
      const dialect = new SqliteDialect(ds);
      const select = statement('SELECT v, label FROM t');
      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      let committed = false;
      const write = dialect
        .write(async (tx) => {
          await tx.rows(statement('INSERT INTO t (v, label) VALUES (?1, ?2)'), [1, 'one']);
          await gate;
        })
        .then(() => (committed = true));
      // The write's transaction starts on the next turn; then its INSERT is in, uncommitted.
      await new Promise((r) => setImmediate(r));
      const read = dialect.one.rows(select, []).then((rows) => ({ rows, committed }));
      await new Promise((r) => setTimeout(r, 20));
      open();
      await write;
      expect(await read).toEqual({ rows: [{ v: 1, label: 'one' }], committed: true });
      // No section under way: the row (by column name) is there without waiting for another turn.
      let answered = false;
      void dialect.one.rows(select, []).then(() => (answered = true));
      await Promise.resolve();
      expect(answered).toBe(true);
    } finally {
      await ds.destroy();
    }
  });

  it('a DataSource destroyed and initialized again: calls fail meanwhile, then run on its new connection', async () => {
    const ds = await new DataSource({ type: 'better-sqlite3', database: join(dir, 'again.sqlite') }).initialize();
    const dialect = new SqliteDialect(ds);
    const insert = statement('INSERT INTO t (v) VALUES (?1)');
    const select = statement('SELECT v FROM t');
    try {
      await ds.query('CREATE TABLE t (v INTEGER)');
      await dialect.one.changed(insert, [1]);
      await ds.destroy();
      await expect(dialect.one.rows(select, [])).rejects.toThrow('TypeOrmTaskStore: the DataSource is not initialized');
      await expect(dialect.one.changed(insert, [2])).rejects.toThrow(
        'TypeOrmTaskStore: the DataSource is not initialized',
      );
      await ds.initialize();
      await dialect.one.changed(insert, [3]);
      expect(await dialect.one.rows(select, [])).toEqual([{ v: 1 }, { v: 3 }]);
    } finally {
      if (ds.isInitialized) await ds.destroy();
    }
  });
});
