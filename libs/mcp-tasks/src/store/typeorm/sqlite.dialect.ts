import type { DataSource, EntityManager } from 'typeorm';
import { GroupCommit } from './group-commit.js';
import { PromiseMutex } from './promise-mutex.js';
import type { SqlSession, Step, StoreDialect } from './store-dialect.js';
import type { RawRow } from './task-columns.js';
import type { SqlFlavour } from './sql-flavour.js';
import type { Statement } from './task-sql.js';

/** The part of a better-sqlite3 statement and database the store uses. */
interface Prepared {
  /** Whether the statement returns rows (a SELECT, or a write with RETURNING). */
  reader: boolean;
  /** Whether it only reads. */
  readonly: boolean;
  all(...params: unknown[]): unknown[][];
  run(...params: unknown[]): { changes: number };
  /** Rows as arrays of values, not objects. */
  raw(on: boolean): Prepared;
  columns(): Array<{ name: string }>;
}
interface Database {
  prepare(text: string): Prepared;
  /** Whether a transaction is open. */
  readonly inTransaction: boolean;
  /** Whether the connection is open (a DataSource destroyed closes it; initialized again, it has a new one). */
  readonly open: boolean;
}

const FLAVOUR: SqlFlavour = {
  param: (n) => `?${n}`,
  lockRows: '',
  lockRowsSkipLocked: '',
  idIn: (column, n) => `${column} IN (SELECT value FROM json_each(?${n}))`,
  idList: (ids) => JSON.stringify(ids),
  // A read is a call into the library in this process: nothing to share.
  batchReads: false,
};

/** One mutex per DataSource: every store on it shares its single SQLite connection. */
const mutexes = new WeakMap<DataSource, PromiseMutex>();

/**
 * SQLite: TypeORM runs every query of a DataSource on one connection, so two transactions started
 * from concurrent promises would interleave on it (the second `BEGIN` fails, or nests as a savepoint).
 * A mutex keeps this process's sections apart; `BEGIN IMMEDIATE` takes the database write lock up
 * front, which serialises writers in other processes too (they wait up to the driver's busy timeout).
 * Writes asked for together share one transaction and its commit (`GroupCommit`), each in a savepoint.
 * Holding the whole-database lock makes row and cap locks unnecessary. The store's statements run
 * synchronously on better-sqlite3's connection (TypeORM's own, as its public `QueryRunner.connect()` gives it),
 * each prepared once.
 */
export class SqliteDialect implements StoreDialect {
  readonly flavour = FLAVOUR;
  private readonly mutex: PromiseMutex;
  private compiled = new Map<string, Compiled>();
  private db?: Database;
  private readonly direct: SqlSession = {
    rows: (s, values) => settled(() => this.rowsNow(s, values)),
    changed: (s, values) => settled(() => this.changedNow(s, values)),
  };
  /** A write's statements: none runs once SQLite has rolled back the transaction by itself (see `GroupCommit`). */
  private readonly tx: SqlSession = {
    rows: (s, values) => settled(() => this.commits.step(() => this.rowsNow(s, values))),
    changed: (s, values) => settled(() => this.commits.step(() => this.changedNow(s, values))),
  };
  readonly one: SqlSession = {
    // A read waits only for sections under way (it would see a transaction's uncommitted statements); with
    // none, better-sqlite3 answers it synchronously, now.
    rows: (s, values) =>
      !this.db?.open
        ? this.connect().then(() => this.one.rows(s, values))
        : this.statement(s.text).prepared.readonly
          ? this.mutex.idle
            ? this.direct.rows(s, values)
            : this.mutex.run(() => this.direct.rows(s, values))
          : this.write((tx) => tx.rows(s, values)),
    // Even one statement takes the write lock up front: see `write`.
    changed: (s, values) => this.write((tx) => tx.changed(s, values)),
  };

  private readonly commits: GroupCommit;

  constructor(private readonly dataSource: DataSource) {
    this.mutex = mutexes.get(dataSource) ?? new PromiseMutex();
    mutexes.set(dataSource, this.mutex);
    // Not a deferred `BEGIN`: that can fail with SQLITE_BUSY on its first write instead of waiting when another
    // process holds the lock.
    const db = {
      ready: () => (this.db?.open ? undefined : this.connect()),
      exec: (sql: string) => void this.statement(sql).prepared.run(),
      inTransaction: () => this.db?.inTransaction === true,
    };
    this.commits = new GroupCommit(this.mutex, db, 'BEGIN IMMEDIATE');
  }

  write<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.commits.run(() => work(this.tx));
  }

  read<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    // On the shared connection a read between a write's statements would see them uncommitted.
    return this.mutex.run(() => work(this.dataSource.manager));
  }

  writeBatch(steps: Step[]): Promise<RawRow[][]> {
    return this.write(async (tx) => {
      const results: RawRow[][] = [];
      for (const { s, params } of steps) results.push(await tx.rows(s, params));
      return results;
    });
  }

  capLocks(): Step[] {
    return [];
  }

  private rowsNow(s: Statement, values: unknown[]): RawRow[] {
    const c = this.statement(s.text);
    if (c.columns) return rowsOf(c.columns, c.prepared.all(...c.bind(values)));
    c.prepared.run(...c.bind(values));
    return [];
  }

  private changedNow(s: Statement, values: unknown[]): number {
    const c = this.statement(s.text);
    return c.prepared.run(...c.bind(values)).changes;
  }

  /**
   * The DataSource's connection, asked of TypeORM (its public `QueryRunner.connect()`) when the store has none
   * open: at first use, and after the DataSource was destroyed and initialized again (a new connection, so the
   * old one's prepared statements are gone with it).
   */
  private async connect(): Promise<void> {
    const runner = this.dataSource.isInitialized ? this.dataSource.driver.createQueryRunner('master') : undefined;
    const db = (await runner?.connect()) as Database | undefined;
    await runner?.release();
    if (!db?.open) throw new Error('TypeOrmTaskStore: the DataSource is not initialized');
    if (db !== this.db) [this.db, this.compiled] = [db, new Map()];
  }

  private statement(text: string): Compiled {
    const db = this.db;
    if (!db?.open) throw new Error('TypeOrmTaskStore: the DataSource is not initialized');
    let c = this.compiled.get(text);
    if (!c) this.compiled.set(text, (c = compile(db, text)));
    return c;
  }
}

/** A statement prepared once, with how to bind its values and, for a reader, its result's column names. */
interface Compiled {
  prepared: Prepared;
  bind(values: unknown[]): unknown[];
  columns?: string[];
}

const byPosition = (values: unknown[]): unknown[] => values;
/** Numbered parameters (`?1`, `?2`, …) bound by number: one object, `{ 1: …, 2: … }`. */
const byNumber = (values: unknown[]): unknown[] => {
  if (values.length === 0) return [];
  const params: Record<number, unknown> = {};
  for (let i = 0; i < values.length; i++) params[i + 1] = values[i];
  return [params];
};

function compile(db: Database, text: string): Compiled {
  // Parameters used once each, in order (most statements), become plain `?`s bound by position: binding an object
  // by name cost ~2.5 of a primary-key read's ~10 µs. A statement that repeats one keeps the numbers.
  const numbers = [...text.matchAll(/\?(\d+)/g)].map((m) => Number(m[1]));
  const inOrder = numbers.every((n, i) => n === i + 1);
  const prepared = db.prepare(inOrder ? text.replace(/\?\d+/g, '?') : text);
  if (!prepared.reader) return { prepared, bind: inOrder ? byPosition : byNumber };
  // Values by position, made into a row below: better-sqlite3 building each row object itself (every column
  // name set as a new key) was a third of a primary-key read's time in the bench's profile.
  const columns = prepared.columns().map((c) => c.name);
  return { prepared: prepared.raw(true), bind: inOrder ? byPosition : byNumber, columns };
}

/** A synchronous step as a promise: its value, or its error as a rejection (callers may chain without a try). */
function settled<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (err) {
    return Promise.reject(err);
  }
}

function rowsOf(columns: string[], values: unknown[][]): RawRow[] {
  return values.map((v) => {
    const row: RawRow = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = v[i];
    return row;
  });
}
