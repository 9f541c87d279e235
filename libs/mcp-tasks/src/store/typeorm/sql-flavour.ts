import type { TaskColumn } from './task-columns.js';

/** What differs in the SQL text itself between databases. */
export interface SqlFlavour {
  /** Placeholder of the `n`-th parameter (from 1); typed as `column` where the database cannot infer it. */
  param(n: number, column?: TaskColumn): string;
  /** Appended to a SELECT to lock its rows until the transaction ends (empty where the transaction locks all). */
  lockRows: string;
  /** The same, leaving out rows another transaction holds. */
  lockRowsSkipLocked: string;
  /**
   * Where several transactions lock rows at once (PostgreSQL): the condition `where` on `table`'s rows, met by
   * rows locked first in the byte order of their ids — the order every write of many rows takes its locks in, so
   * that two never wait on each other (a deadlock PostgreSQL ends by aborting one). Absent where a transaction
   * locks the whole database (SQLite).
   */
  lockedInIdOrder?: (table: string, id: string, where: string) => string;
  /** `column` is one of the ids in parameter `n` (see `idList`). */
  idIn(column: string, n: number): string;
  /** The parameter value `idIn` expects for these ids. */
  idList(ids: string[]): unknown;
  /**
   * An expression that changes whenever a row is written (PostgreSQL's `xmin`), for compare-and-set updates
   * without a transaction around them (`versionedUpdateMany`: needs `columnArray` too); absent where updates lock
   * instead.
   */
  rowVersion?: string;
  /**
   * The column that addresses a row version directly (PostgreSQL's `ctid`, compared with `= ANY(ARRAY(…))`),
   * required with `rowVersion`: the batched compare-and-set finds each row through its id first, then updates it
   * by address (see `versionedUpdateMany`); the sweep deletes the rows it picked by address.
   */
  rowAddress?: string;
  /** Reads by id that arrive together go as one statement: worth it where each statement is a network round trip. */
  batchReads: boolean;
  /**
   * An expression giving these columns (quoted names) of a row as one text value, a JSON array in that order, each
   * value in the form the driver reads the column in (see `TaskColumns.decode`), for the reads by id; absent where
   * rows are read column by column.
   */
  packRow?: (columns: ReadonlyArray<{ name: string; type: TaskColumn['type'] }>) => string;
  /**
   * Capped creates of one owner that arrive together go as one statement (`cappedInsertMany`), where the
   * database can take a column of values as one array parameter (`columnArray`).
   */
  columnArray?: (n: number, column: TaskColumn) => string;
}
