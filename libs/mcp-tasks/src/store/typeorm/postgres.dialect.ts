import type { PoolClient, QueryConfig, QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { sendTogether } from './pg-pipeline.adapter.js';
import { PlanGenerations } from './plan-generations.js';
import type { SqlSession, Step, StoreDialect } from './store-dialect.js';
import { TaskColumns, type RawRow } from './task-columns.js';
import type { SqlFlavour } from './sql-flavour.js';
import { statement, type Statement } from './task-sql.js';

const FLAVOUR: SqlFlavour = {
  param: (n, column) => (column && typeof column.type === 'string' ? `$${n}::${column.type}` : `$${n}`),
  lockRows: ' FOR UPDATE',
  lockRowsSkipLocked: ' FOR UPDATE SKIP LOCKED',
  lockedInIdOrder: (table, id, where) =>
    `${id} IN (SELECT ${id} FROM ${table} WHERE ${where} ORDER BY ${id} COLLATE "C" FOR UPDATE)`,
  idIn: (column, n) => `${column} = ANY($${n}::text[])`,
  idList: (ids) => ids,
  // The id of the transaction that wrote the row version: any committed write to a row changes it.
  rowVersion: 'xmin::text',
  rowAddress: 'ctid',
  batchReads: true,
  // One text column instead of one per entity property: pg parses a column description per column of every answer
  // (~20 µs a statement for the task's 22), and builds each row as an object of them. `json` columns go in as
  // their text (key order and all); bigint as text, as pg reads it (a JSON number could round).
  packRow: (columns) =>
    `json_build_array(${columns.map((c) => (c.type === 'bigint' ? `${c.name}::text` : c.name)).join(', ')})::text`,
  columnArray: (n, column) => `$${n}::${String(column.type)}[]`,
};

// Two-key form: the first key namespaces our locks away from the app's own advisory locks.
const LOCK_TOTAL = statement(`SELECT pg_advisory_xact_lock(hashtext('mcp_tasks.total'), 0)`);
const LOCK_OWNER = statement(`SELECT pg_advisory_xact_lock(hashtext('mcp_tasks.owner'), hashtext($1))`);
// Sorted by the lock's own key: PostgreSQL evaluates a volatile select list after the sort, so the locks are
// taken in that order.
const LOCK_OWNERS = statement(
  `SELECT pg_advisory_xact_lock(hashtext('mcp_tasks.owner'), h) ` +
    `FROM (SELECT DISTINCT hashtext(o) AS h FROM unnest($1::text[]) AS o) AS k ORDER BY h`,
);

type Send = (query: QueryConfig) => Promise<QueryResult>;

const BEGIN: QueryConfig = { text: 'BEGIN ISOLATION LEVEL READ COMMITTED' };
const COMMIT: QueryConfig = { text: 'COMMIT' };

/**
 * PostgreSQL: READ COMMITTED transactions (each statement sees everything committed before it),
 * compare-and-set on the row version (`xmin`) for a task's changes, row locks with SKIP LOCKED where
 * instances share out work (reclaim, sweep), and transaction-scoped advisory locks for the caps — a count
 * has no row to lock, and two inserts would otherwise both see room for one more. Statements go straight
 * to a client of the `pg` pool TypeORM opened for the DataSource (its primary, with replication), taken through
 * TypeORM's public `QueryRunner`, as named (prepared) statements.
 */
export class PostgresDialect implements StoreDialect {
  readonly flavour = FLAVOUR;
  readonly one: SqlSession = this.session((q) => this.withClient((client) => client.query(q)));
  private readonly plans: PlanGenerations;

  constructor(private readonly dataSource: DataSource) {
    const size = {
      text: 'SELECT pg_relation_size($1::regclass) AS bytes',
      values: [new TaskColumns(dataSource).table],
    };
    this.plans = new PlanGenerations(async () => Number((await this.withClient((c) => c.query(size))).rows[0].bytes));
  }

  write<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.transaction(async (client) => {
      // Explicit level: a server whose default is SERIALIZABLE would make writers fail instead of wait.
      await client.query(BEGIN);
      const result = await work(this.session((q) => client.query(q)));
      await client.query(COMMIT);
      return result;
    });
  }

  writeBatch(steps: Step[]): Promise<RawRow[][]> {
    return this.transaction(async (client) => {
      const results = await sendTogether(client, [BEGIN, ...steps.map((x) => this.query(x.s, x.params)), COMMIT]);
      return results.slice(1, -1).map((r) => r.rows as RawRow[]);
    });
  }

  read<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return work(this.dataSource.manager);
  }

  capLocks(owners: string[], total: boolean): Step[] {
    // Always total before owner, so two creates never wait on each other in opposite order.
    const byOwner = owners.length === 1 ? { s: LOCK_OWNER, params: owners } : { s: LOCK_OWNERS, params: [owners] };
    return total ? [{ s: LOCK_TOTAL, params: [] }, byOwner] : [byOwner];
  }

  private session(send: Send): SqlSession {
    const run = (s: Statement, values: unknown[]) => send(this.query(s, values));
    return {
      rows: async (s, values) => (await run(s, values)).rows as Record<string, unknown>[],
      changed: async (s, values) => (await run(s, values)).rowCount ?? 0,
    };
  }

  /** Named (prepared): planned once per connection and generation of plans (see PlanGenerations). */
  private query(s: Statement, values: unknown[]): QueryConfig {
    const generation = this.plans.current();
    return { name: generation ? `${s.name}_${generation}` : s.name, text: s.text, values };
  }

  /** A client of the pool for one transaction, rolled back on any error. */
  private transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.withClient(async (client) => {
      try {
        return await work(client);
      } catch (err) {
        // A connection that cannot even roll back is ended, so the pool drops it rather than hand it on.
        await client.query('ROLLBACK').catch(() => void client.end().catch(() => undefined));
        throw err;
      }
    });
  }

  /**
   * `work` on a client of the DataSource's pool (its primary), taken and given back through a `QueryRunner` of
   * the driver — TypeORM's public way to a pooled connection, which also listens for the client's errors while
   * it is out.
   */
  private async withClient<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    if (!this.dataSource.isInitialized) throw new Error('TypeOrmTaskStore: the DataSource is not initialized');
    const runner = this.dataSource.driver.createQueryRunner('master');
    const client = (await runner.connect()) as PoolClient;
    if (!guarded.has(client)) guard(client);
    try {
      return await work(client);
    } finally {
      await runner.release();
    }
  }
}

const guarded = new WeakSet<PoolClient>();
const reported = (): void => undefined;

/**
 * A client the store used keeps an 'error' listener for the rest of its life. pg emits a dead connection's error
 * (a database restart, `pg_terminate_backend`) on the client; TypeORM listens while the client is out and the
 * pool while it is idle, and an error in a moment neither does, or a second one after the pool dropped it, would
 * otherwise end the process. The error itself is not lost: the query in flight fails with it, and the pool drops
 * a client that is no longer queryable.
 */
function guard(client: PoolClient): void {
  guarded.add(client);
  client.on('error', reported);
}
