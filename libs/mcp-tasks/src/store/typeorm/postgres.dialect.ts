import type { Pool, PoolClient, QueryConfig, QueryResult } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { sendTogether } from './pipelined-send.js';
import { PlanGenerations } from './plan-generations.js';
import type { SqlSession, Step, StoreDialect } from './store-dialect.js';
import { TaskColumns, type RawRow } from './task-columns.js';
import { statement, type SqlFlavour, type Statement } from './task-sql.js';

const FLAVOUR: SqlFlavour = {
  param: (n, column) => (column && typeof column.type === 'string' ? `$${n}::${column.type}` : `$${n}`),
  lockRows: ' FOR UPDATE',
  lockRowsSkipLocked: ' FOR UPDATE SKIP LOCKED',
  idIn: (column, n) => `${column} = ANY($${n}::text[])`,
  idList: (ids) => ids,
  // The id of the transaction that wrote the row version: any committed write to a row changes it.
  rowVersion: 'xmin::text',
  rowAddress: 'ctid',
  batchReads: true,
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
 * to the `pg` pool TypeORM opened for the DataSource, as named (prepared) statements.
 */
export class PostgresDialect implements StoreDialect {
  readonly flavour = FLAVOUR;
  readonly one: SqlSession = this.session((q) => this.pool().query(q));
  private readonly plans: PlanGenerations;

  constructor(private readonly dataSource: DataSource) {
    const size = {
      text: 'SELECT pg_relation_size($1::regclass) AS bytes',
      values: [new TaskColumns(dataSource).table],
    };
    this.plans = new PlanGenerations(async () => Number((await this.pool().query(size)).rows[0].bytes));
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
  private async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool().connect();
    let broken: Error | undefined;
    // The pool listens for errors only on idle clients: a server that goes away (restart, admin shutdown) while
    // this one is out would otherwise be an unhandled 'error' event and end the process. The query in flight
    // fails on its own; the connection is dropped on release.
    const onError = (e: Error) => (broken = e);
    client.on('error', onError);
    try {
      return await work(client);
    } catch (err) {
      // A connection that cannot even roll back is dropped rather than handed to the next caller.
      if (!broken) await client.query('ROLLBACK').catch((e: Error) => (broken = e));
      throw err;
    } finally {
      // A broken client keeps the listener: it may still report its end after the pool drops it.
      if (!broken) client.off('error', onError);
      client.release(broken);
    }
  }

  /** The pool of TypeORM's PostgreSQL driver (its primary, with replication). */
  private pool(): Pool {
    const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
    if (!pool) throw new Error('TypeOrmTaskStore: the DataSource is not initialized');
    if (!guarded.has(pool)) guardClients(pool);
    return pool;
  }
}

const guarded = new WeakSet<Pool>();
const reported = (): void => undefined;

/**
 * Every client of the pool keeps an 'error' listener for its whole life. pg emits a dead connection's error (a
 * database restart, `pg_terminate_backend`) on the client, and the pool listens only while a client is idle: in
 * the moments a client is out or being handed back, an error with no listener would end the process. The
 * error itself is not lost: the query in flight fails with it, and the pool drops a client that is no longer
 * queryable when it comes back.
 */
function guardClients(pool: Pool): void {
  guarded.add(pool);
  pool.on('connect', (client) => client.on('error', reported));
  for (const client of (pool as unknown as { _clients?: PoolClient[] })._clients ?? []) client.on('error', reported);
}
