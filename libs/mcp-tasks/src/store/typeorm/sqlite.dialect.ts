import type { DataSource, EntityManager } from 'typeorm';
import { GroupCommit } from './group-commit.js';
import { PromiseMutex } from './promise-mutex.js';
import type { SqlSession, Step, StoreDialect } from './store-dialect.js';
import type { RawRow } from './task-columns.js';
import type { SqlFlavour } from './task-sql.js';

/** The part of a better-sqlite3 statement and database the store uses. */
interface Prepared {
  /** Whether the statement returns rows (a SELECT, or a write with RETURNING). */
  reader: boolean;
  /** Whether it only reads. */
  readonly: boolean;
  all(params?: object): unknown[][];
  run(params?: object): { changes: number };
  /** Rows as arrays of values, not objects. */
  raw(on: boolean): Prepared;
  columns(): Array<{ name: string }>;
}
interface Database {
  prepare(text: string): Prepared;
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

/** Arguments binding numbered parameters (`?1`, `?2`, …) by position; none for a statement without any. */
const numbered = (values: unknown[]): [object] | [] => {
  if (values.length === 0) return [];
  const params: Record<number, unknown> = {};
  for (let i = 0; i < values.length; i++) params[i + 1] = values[i];
  return [params];
};

/**
 * SQLite: TypeORM runs every query of a DataSource on one connection, so two transactions started
 * from concurrent promises would interleave on it (the second `BEGIN` fails, or nests as a savepoint).
 * A mutex keeps this process's sections apart; `BEGIN IMMEDIATE` takes the database write lock up
 * front, which serialises writers in other processes too (they wait up to the driver's busy timeout).
 * Writes asked for together share one transaction and its commit (`GroupCommit`), each in a savepoint.
 * Holding the whole-database lock makes row and cap locks unnecessary. The store's statements run
 * synchronously on better-sqlite3's connection (TypeORM's own), each prepared once.
 */
export class SqliteDialect implements StoreDialect {
  readonly flavour = FLAVOUR;
  private readonly mutex: PromiseMutex;
  private prepared = new Map<string, Prepared>();
  private db?: Database;
  private readonly direct: SqlSession = {
    rows: (s, values) =>
      settled(() => {
        const prepared = this.statement(s.text);
        if (prepared.reader) return rowsOf(prepared, prepared.all(...numbered(values)));
        prepared.run(...numbered(values));
        return [];
      }),
    changed: (s, values) => settled(() => this.statement(s.text).run(...numbered(values)).changes),
  };
  readonly one: SqlSession = {
    // A read waits only for sections under way (it would see a transaction's uncommitted statements); with
    // none, better-sqlite3 answers it synchronously, now.
    rows: (s, values) =>
      this.statement(s.text).readonly
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
    this.commits = new GroupCommit(this.mutex, (sql) => void this.statement(sql).run(), 'BEGIN IMMEDIATE');
  }

  write<T>(work: (tx: SqlSession) => Promise<T>): Promise<T> {
    return this.commits.run(() => work(this.direct));
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

  private statement(text: string): Prepared {
    const db = (this.dataSource.driver as unknown as { databaseConnection?: Database }).databaseConnection;
    if (!db) throw new Error('TypeOrmTaskStore: the DataSource is not initialized');
    // A DataSource initialized again has a new connection: statements of the old one are gone with it.
    if (db !== this.db) [this.db, this.prepared] = [db, new Map()];
    let s = this.prepared.get(text);
    if (!s) {
      s = db.prepare(text);
      // Values by position, made into a row below: better-sqlite3 building each row object itself (every column
      // name set as a new key) was a third of a primary-key read's time in the bench's profile.
      if (s.reader)
        names.set(
          s.raw(true),
          s.columns().map((c) => c.name),
        );
      this.prepared.set(text, s);
    }
    return s;
  }
}

/** A synchronous step as a promise: its value, or its error as a rejection (callers may chain without a try). */
function settled<T>(step: () => T): Promise<T> {
  try {
    return Promise.resolve(step());
  } catch (err) {
    return Promise.reject(err);
  }
}

/** Column names of each raw reader statement, in its result order. */
const names = new WeakMap<Prepared, string[]>();

function rowsOf(prepared: Prepared, values: unknown[][]): RawRow[] {
  const columns = names.get(prepared)!;
  return values.map((v) => {
    const row: RawRow = {};
    for (let i = 0; i < columns.length; i++) row[columns[i]] = v[i];
    return row;
  });
}
