import type { EntityManager } from 'typeorm';
import type { RawRow } from './task-columns.js';
import type { SqlFlavour } from './sql-flavour.js';
import type { Statement } from './task-sql.js';

/** Runs the store's own statements (raw SQL through the DataSource's driver, parameters in order). */
export interface SqlSession {
  /** The rows one statement returns, as the driver gives them. */
  rows(s: Statement, params: unknown[]): Promise<RawRow[]>;
  /** How many rows one statement inserted, changed or deleted. */
  changed(s: Statement, params: unknown[]): Promise<number>;
}

/** One statement of a batch, with its parameters. */
export interface Step {
  s: Statement;
  params: unknown[];
}

/**
 * What differs between databases: how a store's writes are made atomic, and how its SQL is spelled. The store
 * itself is written once against this, so the task logic (caps, compare-and-set, reclaim) cannot drift per
 * database.
 */
export interface StoreDialect {
  readonly flavour: SqlFlavour;
  /** Runs `work` in one transaction; rows and caps it locks stay locked until it ends. */
  write<T>(work: (tx: SqlSession) => Promise<T>): Promise<T>;
  /**
   * Runs statements that need no answer in between in one transaction, sent together where the driver can;
   * the rows each returned, in order.
   */
  writeBatch(steps: Step[]): Promise<RawRow[][]>;
  /** One statement that is atomic by itself (a read, or a write that needs nothing else in its transaction). */
  one: SqlSession;
  /** Runs a TypeORM read (the console's queries) that must not observe another write's uncommitted rows. */
  read<T>(work: (m: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Statements that serialise cap checks for these owners (and the whole table when `total`) until the
   * transaction ends; taken in one fixed order, so two transactions never wait on each other in opposite order.
   */
  capLocks(owners: string[], total: boolean): Step[];
}
