import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SqliteDialect } from '../../libs/mcp-tasks/src/store/typeorm/sqlite.dialect.js';
import { statement } from '../../libs/mcp-tasks/src/store/typeorm/task-sql.js';
import { sqlHarness } from './sql-harness.js';
import { NO_LIMITS, T0, newTask } from '@mcp-tasks/nestjs/testing';
import type { TaskRecord } from '../../libs/mcp-tasks/src/store/task.record.js';

/**
 * Real faults on a real SQLite file. `PRAGMA max_page_count` caps the database a little above its size, so a
 * large write fails with SQLITE_FULL. Where SQLite needs no statement journal (a one-row UPDATE; an INSERT into a
 * table without indexes) that error rolls back the whole transaction, not the statement — in the middle of a
 * group commit, with the batch's other writes in it. Each test then reads the file back on a connection of its
 * own (committed rows only) and holds the store to its word: every write that resolved is there, none that
 * rejected is.
 */
const dir = mkdtempSync(join(tmpdir(), 'mcp-sqlite-fault-'));
const BIG = 'x'.repeat(1_000_000);

const open = (database: string, more: { timeout?: number } = {}) =>
  new DataSource({ type: 'better-sqlite3', database, ...more }).initialize();

/** Leaves room for a few pages more than the database has now. */
async function fillUpTo(ds: DataSource, spare: number): Promise<void> {
  const [{ page_count }] = await ds.query('PRAGMA page_count');
  await ds.query(`PRAGMA max_page_count = ${Number(page_count) + spare}`);
}

/** The writes committed, as ids `query` selects, read on a connection of its own. */
async function committed(database: string, query = 'SELECT id FROM t'): Promise<Set<string>> {
  const reader = await open(database);
  try {
    return new Set((await reader.query(query)).map((r: { id: unknown }) => String(r.id)));
  } finally {
    await reader.destroy();
  }
}

/** Each write: whether it resolved, and whether it is stored — the two must agree. */
function expectExact(ids: string[], outcomes: PromiseSettledResult<unknown>[], stored: Set<string>): void {
  const seen = ids.map((id, i) => ({ id, resolved: outcomes[i].status === 'fulfilled', stored: stored.has(id) }));
  expect(seen).toEqual(seen.map((w) => ({ ...w, stored: w.resolved })));
}

/** The store's tasks, and `<id>:update` for one whose status message was written. */
const WRITTEN =
  "SELECT id FROM mcp_tasks UNION ALL SELECT id || ':update' FROM mcp_tasks WHERE status_message IS NOT NULL";

const codeOf = (o: PromiseSettledResult<unknown>) =>
  o.status === 'rejected' ? (o.reason as { code?: string }).code : o;

describe('SQLite group commit under real faults', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('store: the disk-full write fails alone (SQLITE_FULL), the others are stored and resolve; recovery', async () => {
    const file = join(dir, 'store.sqlite');
    const h = await sqlHarness({ type: 'better-sqlite3', database: file, enableWAL: true }, false);
    try {
      const big = newTask();
      await h.store.create(big, NO_LIMITS);
      await fillUpTo(h.dataSource, 16);
      const tasks = Array.from({ length: 8 }, () => newTask());
      // Asked for in one turn: one transaction, the oversized progress update fifth.
      const create = (t: TaskRecord) => h.store.create(t, NO_LIMITS);
      const outcomes = await Promise.allSettled([
        ...tasks.slice(0, 4).map(create),
        h.store.update(big.id, { kind: 'progress', statusMessage: BIG }, T0 + 1),
        ...tasks.slice(4).map(create),
      ]);

      const ids = outcomes.map((_, i) => (i === 4 ? `${big.id}:update` : tasks[i < 4 ? i : i - 1].id));
      expectExact(ids, outcomes, await committed(file, WRITTEN));
      // The writes SQLite's rollback took with it had not failed: run again, they are stored.
      expect(outcomes.map(codeOf)).toEqual([
        ...tasks.slice(0, 4).map(() => ({ status: 'fulfilled', value: 'created' })),
        'SQLITE_FULL',
        ...tasks.slice(4).map(() => ({ status: 'fulfilled', value: 'created' })),
      ]);

      // Room again: the same write goes through, and so do the next ones.
      await h.dataSource.query('PRAGMA max_page_count = 1000000');
      const after = newTask();
      const [updated] = await Promise.all([
        h.store.update(big.id, { kind: 'progress', statusMessage: BIG }, T0 + 2),
        h.store.create(after, NO_LIMITS),
      ]);
      expect(updated?.changed).toBe(true);
      expect((await h.store.get(big.id, T0 + 2))?.statusMessage).toHaveLength(BIG.length);
      expect(await committed(file, WRITTEN)).toEqual(
        new Set([big.id, `${big.id}:update`, ...tasks.map((t) => t.id), after.id]),
      );
    } finally {
      await h.close();
    }
  });

  it('dialect: a write that carries on after the rollback stores none of its statements and fails', async () => {
    const file = join(dir, 'carry-on.sqlite');
    const ds = await open(file);
    try {
      await ds.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const dialect = new SqliteDialect(ds);
      const insert = statement('INSERT INTO t (id, v) VALUES (?1, ?2)');
      await fillUpTo(ds, 8);
      const put = (id: number, v = 'small') => dialect.write((tx) => tx.changed(insert, [id, v]));
      const outcomes = await Promise.allSettled([
        put(1),
        put(2),
        dialect.write(async (tx) => {
          // A write may survive an error of its own (SQLite rolls back only the statement, as a rule), then go on.
          await tx.changed(insert, [3, BIG]).catch(() => 0);
          return tx.changed(insert, [4, 'after the rollback']);
        }),
        put(5),
      ]);
      expectExact(['1', '2', '4', '5'], outcomes, await committed(file));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(codeOf(outcomes[2])).toBe('SQLITE_FULL');
      expect([...(await committed(file))].sort()).toEqual(['1', '2', '5']);
    } finally {
      await ds.destroy();
    }
  });

  it('dialect: two writes of one batch that each fill the disk fail, each alone; the rest are stored', async () => {
    const file = join(dir, 'two.sqlite');
    const ds = await open(file);
    try {
      await ds.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const dialect = new SqliteDialect(ds);
      const insert = statement('INSERT INTO t (id, v) VALUES (?1, ?2)');
      await fillUpTo(ds, 8);
      const values = ['a', BIG, 'b', BIG, 'c'];
      const outcomes = await Promise.allSettled(
        values.map((v, i) => dialect.write((tx) => tx.changed(insert, [i + 1, v]))),
      );
      expect(outcomes.map(codeOf)).toEqual([
        { status: 'fulfilled', value: 1 },
        'SQLITE_FULL',
        { status: 'fulfilled', value: 1 },
        'SQLITE_FULL',
        { status: 'fulfilled', value: 1 },
      ]);
      expectExact(['1', '2', '3', '4', '5'], outcomes, await committed(file));
    } finally {
      await ds.destroy();
    }
  });

  it('dialect: a refused COMMIT (SQLITE_BUSY) fails the whole batch, stores none; the next commits', async () => {
    const file = join(dir, 'busy.sqlite');
    const ds = await open(file, { timeout: 50 });
    const other = await open(file);
    const reading = other.createQueryRunner();
    try {
      await ds.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      const dialect = new SqliteDialect(ds);
      const insert = statement('INSERT INTO t (id, v) VALUES (?1, ?2)');
      // A read transaction holds its shared lock until it ends: the COMMIT cannot take the exclusive one.
      await reading.startTransaction();
      await reading.query('SELECT COUNT(*) FROM t');
      const outcomes = await Promise.allSettled(
        [1, 2, 3].map((id) => dialect.write((tx) => tx.changed(insert, [id, 'v']))),
      );
      await reading.rollbackTransaction();
      expect(outcomes.map(codeOf)).toEqual(['SQLITE_BUSY', 'SQLITE_BUSY', 'SQLITE_BUSY']);
      expectExact(['1', '2', '3'], outcomes, await committed(file));

      const again = await Promise.allSettled([1, 2].map((id) => dialect.write((tx) => tx.changed(insert, [id, 'v']))));
      expect(again.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(await committed(file)).toEqual(new Set(['1', '2']));
    } finally {
      await reading.release();
      await other.destroy();
      await ds.destroy();
    }
  });
});
