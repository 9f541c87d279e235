import type { DataSource, EntityManager, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PromiseMutex } from './promise-mutex.js';
import type { StoreDialect } from './store-dialect.js';

/** One mutex per DataSource: every store on it shares its single SQLite connection. */
const mutexes = new WeakMap<DataSource, PromiseMutex>();

/**
 * SQLite: TypeORM runs every query of a DataSource on one connection, so two transactions started
 * from concurrent promises would interleave on it (the second `BEGIN` fails, or nests as a savepoint).
 * A mutex keeps this process's sections apart; `BEGIN IMMEDIATE` takes the database write lock up
 * front, which serialises writers in other processes too (they wait up to the driver's busy timeout).
 * Holding the whole-database lock makes row and cap locks unnecessary.
 */
export class SqliteDialect implements StoreDialect {
  private readonly mutex: PromiseMutex;

  constructor(private readonly dataSource: DataSource) {
    this.mutex = mutexes.get(dataSource) ?? new PromiseMutex();
    mutexes.set(dataSource, this.mutex);
  }

  write<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.mutex.run(async () => {
      // Not `dataSource.transaction()`: that issues a deferred `BEGIN`, which can fail with
      // SQLITE_BUSY on its first write instead of waiting when another process holds the lock.
      const runner = this.dataSource.createQueryRunner();
      await runner.query('BEGIN IMMEDIATE');
      try {
        const result = await work(runner.manager);
        await runner.query('COMMIT');
        return result;
      } catch (err) {
        await runner.query('ROLLBACK').catch(() => undefined);
        throw err;
      }
    });
  }

  read<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    // On the shared connection a read between a write's statements would see them uncommitted.
    return this.mutex.run(() => work(this.dataSource.manager));
  }

  async lockCaps(): Promise<void> {}

  lockRows<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): SelectQueryBuilder<T> {
    return qb;
  }
}
