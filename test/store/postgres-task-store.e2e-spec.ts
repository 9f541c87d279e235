import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { sqlHarness, type SqlHarness } from './sql-harness.js';
import { newTask, NO_LIMITS, T0, taskStoreContract } from '@mcp-tasks/nestjs/testing';
import { typeOrmSchemaContract } from './typeorm-schema.contract.js';
import { PostgresDialect } from '../../libs/mcp-tasks/src/store/typeorm/postgres.dialect.js';
import { TaskColumns } from '../../libs/mcp-tasks/src/store/typeorm/task-columns.js';
import { TaskSql } from '../../libs/mcp-tasks/src/store/typeorm/task-sql.js';

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
    taskStoreContract(() => sqlHarness({ type: 'postgres', url: url() }, true), jest, { shared: true });
  });
  // Compare-and-sets asked for together share one UPDATE: what one of them does must not reach the others.
  describe('compare-and-sets sent together', () => {
    let h: SqlHarness;
    beforeAll(async () => {
      h = await sqlHarness({ type: 'postgres', url: url() }, false);
    });
    afterAll(async () => h?.close());

    it('a change PostgreSQL refuses (a NUL in a text column) fails alone; the changes sent with it land', async () => {
      const tasks = Array.from({ length: 12 }, () => newTask());
      for (const t of tasks) await h.store.create(t, NO_LIMITS);
      const message = (i: number) => (i === 5 ? 'half\u0000way' : `step ${i}`);
      const outcomes = await Promise.allSettled(
        tasks.map((t, i) => h.store.update(t.id, { kind: 'progress', statusMessage: message(i) }, T0 + 1)),
      );
      expect(outcomes.map((o) => o.status)).toEqual(tasks.map((_, i) => (i === 5 ? 'rejected' : 'fulfilled')));
      const read = await Promise.all(tasks.map((t) => h.store.get(t.id, T0 + 2)));
      expect(read.map((t) => t?.statusMessage)).toEqual(tasks.map((_, i) => (i === 5 ? undefined : `step ${i}`)));
    });

    it('two changes of one task sent together both land, in the order they were asked for', async () => {
      const task = newTask();
      await h.store.create(task, NO_LIMITS);
      const others = Array.from({ length: 5 }, () => newTask());
      for (const t of others) await h.store.create(t, NO_LIMITS);
      const [a, b] = await Promise.all([
        h.store.update(task.id, { kind: 'progress', statusMessage: 'first' }, T0 + 1),
        h.store.update(task.id, { kind: 'progress', statusMessage: 'second' }, T0 + 2),
        ...others.map((t) => h.store.update(t.id, { kind: 'progress', statusMessage: 'other' }, T0 + 1)),
      ]);
      expect([a?.changed, b?.changed]).toEqual([true, true]);
      expect((await h.store.get(task.id, T0 + 3))?.statusMessage).toBe('second');
    });

    /** Holds the store's first compare-and-set write back `ms`, for the length of `body`. */
    const holdingFirstWrite = async (ms: number, body: () => Promise<void>): Promise<void> => {
      const writes = (h.store as unknown as { casWrites: { write(...args: unknown[]): Promise<unknown> } }).casWrites;
      const write = writes.write.bind(writes);
      let held = false;
      writes.write = async (...args) => {
        if (!held) {
          held = true;
          await new Promise((resolve) => setTimeout(resolve, ms));
        }
        return write(...args);
      };
      try {
        await body();
      } finally {
        delete (writes as { write?: unknown }).write;
      }
    };

    it("a task's second change waits for its first, however long the first takes to reach the database", async () => {
      // Deterministic form of the race above.
      await holdingFirstWrite(50, async () => {
        const task = newTask();
        await h.store.create(task, NO_LIMITS);
        const [a, b] = await Promise.all([
          h.store.update(task.id, { kind: 'progress', statusMessage: 'first' }, T0 + 1),
          h.store.update(task.id, { kind: 'progress', statusMessage: 'second' }, T0 + 2),
        ]);
        expect([a?.changed, b?.changed]).toEqual([true, true]);
        expect((await h.store.get(task.id, T0 + 3))?.statusMessage).toBe('second');
      });
    });

    it('a finish does not wait behind a slow change: it lands first, and the slow change finds it final', async () => {
      await holdingFirstWrite(300, async () => {
        const task = newTask();
        await h.store.create(task, NO_LIMITS);
        const order: string[] = [];
        const progress = h.store
          .update(task.id, { kind: 'progress', statusMessage: 'slow' }, T0 + 1)
          .finally(() => order.push('progress'));
        const finish = h.store
          .update(task.id, { kind: 'finish', status: 'completed', result: { content: [] } }, T0 + 2)
          .finally(() => order.push('finish'));
        const [p, f] = await Promise.all([progress, finish]);
        expect(order).toEqual(['finish', 'progress']);
        expect([f?.changed, f?.task.status]).toEqual([true, 'completed']);
        expect([p?.changed, p?.task.status]).toEqual([false, 'completed']);
        expect((await h.store.get(task.id, T0 + 3))?.status).toBe('completed');
      });
    });

    it('the batched compare-and-set looks rows up by id, even in a plan kept from a small table', async () => {
      // After a few runs a prepared statement keeps one generic plan for the connection's life; forced here, on
      // a near-empty table, as it happens on a fresh database. It must not read the whole table per batch.
      for (let i = 0; i < 3; i++) await h.store.create(newTask(), NO_LIMITS);
      const columns = new TaskColumns(h.dataSource);
      const sql = new TaskSql(columns, new PostgresDialect(h.dataSource).flavour);
      const cas = sql.versionedUpdateMany(columns.of(['status', 'updatedAt']));
      const runner = h.dataSource.createQueryRunner();
      try {
        await runner.query('BEGIN');
        await runner.query('SET LOCAL plan_cache_mode = force_generic_plan');
        await runner.query(`PREPARE cas_plan AS ${cas.text}`);
        const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(
          `EXPLAIN EXECUTE cas_plan('{a}', '{completed}', '{2}', '{1}')`,
        );
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).not.toMatch(/Seq Scan on mcp_tasks/);
        expect(plan).toMatch(/Index Scan using \S+ on mcp_tasks/);
      } finally {
        await runner.query('DEALLOCATE cas_plan').catch(() => undefined);
        await runner.query('ROLLBACK');
        await runner.release();
      }
    });
  });

  // Its own DataSource: closed and opened again.
  it('a DataSource destroyed: every call is a rejection saying so; initialized again, the store works', async () => {
    const h = await sqlHarness({ type: 'postgres', url: url() }, false);
    try {
      const task = newTask();
      expect(await h.store.create(task, NO_LIMITS)).toBe('created');
      await h.dataSource.destroy();
      const calls = [
        () => h.store.get(task.id, T0),
        () => h.store.create(newTask(), { maxPerOwner: 5, maxTotal: Infinity }),
        () => h.store.update(task.id, { kind: 'progress', statusMessage: 'x' }, T0 + 1),
        () => h.store.sweep(T0, 10),
      ];
      for (const call of calls) {
        let promise: Promise<unknown> | undefined;
        expect(() => (promise = call())).not.toThrow();
        await expect(promise).rejects.toThrow('TypeOrmTaskStore: the DataSource is not initialized');
      }
      await h.dataSource.initialize();
      expect(await h.store.update(task.id, { kind: 'progress', statusMessage: 'again' }, T0 + 2)).toMatchObject({
        changed: true,
      });
      expect((await h.store.get(task.id, T0 + 3))?.statusMessage).toBe('again');
    } finally {
      await h.close();
    }
  });

  // Its own database and one connection: the plan PostgreSQL keeps for a statement is per connection.
  describe('plans kept while the table grows', () => {
    let h: SqlHarness;
    let admin: DataSource;
    beforeAll(async () => {
      admin = await new DataSource({ type: 'postgres', url: url() }).initialize();
      await admin.query('CREATE DATABASE plan_growth');
      h = await sqlHarness(
        { type: 'postgres', url: url().replace(/\/postgres$/, '/plan_growth'), extra: { max: 1 } },
        false,
      );
      // As between two autovacuum runs: the table grows, its statistics stay those of the small table.
      await h.dataSource.query('ALTER TABLE mcp_tasks SET (autovacuum_enabled = false)');
    });
    afterAll(async () => {
      await h?.close();
      await admin?.destroy();
    });

    it('reads by id made on a small table still use the primary key once it has grown', async () => {
      const tasks = Array.from({ length: 30 }, () => newTask());
      for (const t of tasks) await h.store.create(t, NO_LIMITS);
      await h.dataSource.query('ANALYZE mcp_tasks');
      // Enough calls for PostgreSQL to settle a named statement on its generic plan (after five custom ones).
      for (let i = 0; i < 10; i++) expect((await h.store.get(tasks[i].id, T0 + 1))?.id).toBe(tasks[i].id);
      await h.dataSource.query(
        `INSERT INTO mcp_tasks (id, owner_key, tool, status, input_requests, input_responses, required_scopes,
           created_at, updated_at)
         SELECT 'grown-' || g, 'o', 't', 'completed', '{}', '{}', '[]', 1, 1 FROM generate_series(1, 20000) g`,
      );
      // The store looks at the table's size every couple of seconds while it is small.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      for (let i = 0; i < 10; i++) expect((await h.store.get(tasks[i].id, T0 + 1))?.id).toBe(tasks[i].id);
      // The pool's one connection: the statement as the store left it prepared there.
      // Reads by id go out batched: one `id = ANY(…)` statement.
      const get = new TaskSql(new TaskColumns(h.dataSource), new PostgresDialect(h.dataSource).flavour).getMany;
      const runner = h.dataSource.createQueryRunner();
      try {
        // The store's latest generation of it (a new name each time the table has doubled).
        const prepared: Array<{ name: string }> = await runner.query(
          'SELECT name FROM pg_prepared_statements WHERE starts_with(name, $1) ORDER BY prepare_time DESC LIMIT 1',
          [get.name],
        );
        expect(prepared).toHaveLength(1);
        const rows: Array<{ 'QUERY PLAN': string }> = await runner.query(
          `EXPLAIN EXECUTE "${prepared[0].name}"('{x}')`,
        );
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).not.toMatch(/Seq Scan on mcp_tasks/);
        expect(plan).toMatch(/Index Scan (using|on) \S+/);
      } finally {
        await runner.release();
      }
    }, 30_000);
  });

  // Its own database: the schema checks drop and recreate the table.
  typeOrmSchemaContract(async () => {
    const admin = await new DataSource({ type: 'postgres', url: url() }).initialize();
    await admin.query('CREATE DATABASE schema_check');
    await admin.destroy();
    return { type: 'postgres', url: url().replace(/\/postgres$/, '/schema_check') };
  });
});
