import { createHash } from 'node:crypto';
import type { SqlFlavour } from './sql-flavour.js';
import type { TaskColumn, TaskColumns } from './task-columns.js';

/** One SQL text, and the name it is prepared under where the driver prepares statements by name. */
export interface Statement {
  readonly text: string;
  readonly name: string;
}

/** The result column carrying `SqlFlavour.rowVersion`. */
export const ROW_VERSION = 'mcp_row_version';
/** The result column carrying a row packed by `SqlFlavour.packRow`. */
export const PACKED_ROW = 'mcp_row';

/** The name is derived from the text, so a changed statement never reuses the name of another. */
export const statement = (text: string): Statement => ({
  text,
  name: `mcp_tasks_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`,
});

/** The statuses of a task that is not terminal. */
export const LIVE = `('working', 'input_required')`;

/**
 * Every statement `TypeOrmTaskStore` runs on its hot paths, written once per DataSource from the entity's
 * columns (those moving leases: `LeaseSql`). Parameters of a row are its columns in entity order
 * (`TaskColumns.all`), then any extra ones. Inserts return a row (with the row's version where the flavour has one):
 * none means nothing was inserted.
 */
export class TaskSql {
  readonly get: Statement;
  /** Every task whose id is in the list (parameter 1, see `SqlFlavour.idList`). */
  readonly getMany: Statement;
  /** Id and status of every task whose id is in the list (parameter 1) and not expired at parameter 2. */
  readonly statuses: Statement;
  readonly getForUpdate: Statement;
  /** `get` with the row's version (only where the flavour has one). */
  readonly getVersioned?: Statement;
  readonly insert: Statement;
  readonly countOwner: Statement;
  readonly sweep: Statement;
  private readonly cappedInserts = new Map<string, Statement>();
  private readonly cappedInsertsMany = new Map<string, Statement>();
  private readonly updates = new Map<string, Statement>();
  private readonly versionedUpdates = new Map<string, Statement>();
  private readonly c: Record<'id' | 'owner' | 'status' | 'expires', string>;

  constructor(
    private readonly columns: TaskColumns,
    private readonly f: SqlFlavour,
  ) {
    const [id, owner, status, expires] = columns
      .of(['id', 'ownerKey', 'status', 'expiresAt'])
      .map((col) => columns.name(col));
    this.c = { id, owner, status, expires };
    const t = columns.table;
    const list = columns.all.map((col) => columns.name(col)).join(', ');
    const p = (n: number) => f.param(n);
    // PostgreSQL's functions take at most 100 arguments by default.
    const named = columns.all.map((col) => ({ name: columns.name(col), type: col.type }));
    const read = f.packRow && named.length <= 100 ? `${f.packRow(named)} AS ${PACKED_ROW}` : list;
    this.get = statement(`SELECT ${read} FROM ${t} WHERE ${id} = ${p(1)}`);
    this.getMany = statement(`SELECT ${read} FROM ${t} WHERE ${f.idIn(id, 1)}`);
    this.statuses = statement(
      `SELECT ${id} AS id, ${status} AS status FROM ${t} WHERE ${f.idIn(id, 1)} ` +
        `AND (${expires} IS NULL OR ${expires} > ${p(2)})`,
    );
    this.getForUpdate = statement(`${this.get.text}${f.lockRows}`);
    if (f.rowVersion)
      this.getVersioned = statement(
        `SELECT ${read}, ${f.rowVersion} AS ${ROW_VERSION} FROM ${t} WHERE ${id} = ${p(1)}`,
      );
    const values = columns.all.map((_, i) => p(i + 1)).join(', ');
    this.insert = statement(`INSERT INTO ${t} (${list}) VALUES (${values})${this.returningVersion()}`);
    this.countOwner = statement(`SELECT COUNT(*) AS n FROM ${t} WHERE ${owner} = ${p(1)} AND ${this.live(p(2))}`);
    const expired = `${expires} IS NOT NULL AND ${expires} <= ${p(1)}`;
    // The subquery picks the batch: LIMIT is not allowed on DELETE itself in PostgreSQL. By address where there is
    // one: the rows are then deleted where the subquery found (and locked) them, not looked up again through the
    // primary key. PostgreSQL, 1 000 000 expired rows, batches of 100: 0.3 ms against 1.9 ms (EXPLAIN ANALYZE), 0.7
    // against 1.3 ms from a client.
    const key = f.rowAddress ?? id;
    const batch = `SELECT ${key} FROM ${t} WHERE ${expired} LIMIT ${p(2)}${f.lockRowsSkipLocked}`;
    this.sweep = statement(
      f.rowAddress
        ? `DELETE FROM ${t} WHERE ${key} = ANY(ARRAY(${batch}))`
        : `DELETE FROM ${t} WHERE ${key} IN (${batch})`,
    );
  }

  /**
   * Inserts the row (its columns' parameters) only while the caps leave room: the owner's live tasks below the
   * parameter after the row's, and (with `total`) all live tasks below the one after that. Live at the row's
   * creation time; the caller holds the cap locks, so the counts cannot change before the insert commits.
   */
  cappedInsert(perOwner: boolean, total: boolean): Statement {
    const key = `${perOwner}:${total}`;
    let s = this.cappedInserts.get(key);
    if (!s) {
      const { columns, f } = this;
      const [owner, created] = columns.of(['ownerKey', 'createdAt']).map((col) => columns.all.indexOf(col) + 1);
      const now = f.param(created);
      const n = columns.all.length;
      const count = (where: string) => `(SELECT COUNT(*) FROM ${columns.table} WHERE ${where})`;
      const caps = [
        perOwner ? `${count(`${this.c.owner} = ${f.param(owner)} AND ${this.live(now)}`)} < ${f.param(n + 1)}` : '',
        total ? `${count(this.live(now))} < ${f.param(perOwner ? n + 2 : n + 1)}` : '',
      ].filter(Boolean);
      const values = columns.all.map((col, i) => f.param(i + 1, col)).join(', ');
      const list = columns.all.map((col) => columns.name(col)).join(', ');
      const where = caps.join(' AND ');
      s = statement(`INSERT INTO ${columns.table} (${list}) SELECT ${values} WHERE ${where}${this.returningVersion()}`);
      this.cappedInserts.set(key, s);
    }
    return s;
  }

  /**
   * Inserts several rows, each column's values as one array parameter (in `TaskColumns.all` order), then the time
   * the caps count live tasks at, the owners' cap (with `perOwner`) and the total cap (with `total`): an owner's
   * `k`-th row only while its live tasks plus `k` stay within its cap, and the batch's `k`-th row only while all
   * live tasks plus `k` stay within the total — rows in order, as long as there is room (the total is exact for
   * a batch of one owner). The caller holds the cap locks. Returns the id (and version) of each row inserted.
   */
  cappedInsertMany(perOwner: boolean, total: boolean): Statement {
    const key = `${perOwner}:${total}`;
    let s = this.cappedInsertsMany.get(key);
    if (!s) {
      const { columns, f } = this;
      const n = columns.all.length;
      const arrays = columns.all.map((col, i) => f.columnArray!(i + 1, col)).join(', ');
      const names = columns.all.map((_, i) => `c${i}`).join(', ');
      const ownerAt = columns.all.indexOf(columns.of(['ownerKey'])[0]);
      const owner = `c${ownerAt}`;
      const count = (where: string) => `(SELECT COUNT(*) FROM ${columns.table} WHERE ${where})`;
      const now = f.param(n + 1);
      // Each owner's live tasks counted once per statement, not once per row: with many rows of one owner, the
      // count (an index walk over that owner's rows) was the statement's cost. MATERIALIZED keeps the planner
      // from folding it back into the rows.
      const counted = perOwner
        ? `WITH owners AS MATERIALIZED (SELECT o, ${count(`${this.c.owner} = o AND ${this.live(now)}`)} AS n ` +
          `FROM (SELECT DISTINCT o FROM unnest(${f.columnArray!(ownerAt + 1, columns.all[ownerAt])}) AS o) AS d) `
        : '';
      const caps = [
        perOwner ? `owners.n + v.k <= ${f.param(n + 2)}` : '',
        total ? `${count(this.live(now))} + v.ord <= ${f.param(perOwner ? n + 3 : n + 2)}` : '',
      ].filter(Boolean);
      const list = columns.all.map((col) => columns.name(col)).join(', ');
      const version = f.rowVersion ? `, ${f.rowVersion} AS ${ROW_VERSION}` : '';
      const ranked =
        `SELECT u.*, row_number() OVER (PARTITION BY u.${owner} ORDER BY u.ord) AS k ` +
        `FROM unnest(${arrays}) WITH ORDINALITY AS u(${names}, ord)`;
      const join = perOwner ? ` JOIN owners ON owners.o = v.${owner}` : '';
      s = statement(
        `${counted}INSERT INTO ${columns.table} (${list}) SELECT ${names} FROM (${ranked}) AS v${join} ` +
          `WHERE ${caps.join(' AND ')} RETURNING ${this.c.id} AS id${version}`,
      );
      this.cappedInsertsMany.set(key, s);
    }
    return s;
  }

  /** Sets these columns (parameters 2…) of the task whose id is parameter 1. */
  update(columns: readonly TaskColumn[]): Statement {
    const key = columns.map((col) => col.databaseName).join(',');
    let s = this.updates.get(key);
    if (!s) {
      const set = columns.map((col, i) => `${this.columns.name(col)} = ${this.f.param(i + 2)}`).join(', ');
      s = statement(`UPDATE ${this.columns.table} SET ${set} WHERE ${this.c.id} = ${this.f.param(1)}`);
      this.updates.set(key, s);
    }
    return s;
  }

  /**
   * Sets these columns of many tasks in one statement, each only while its row is still at the version its write
   * expects (compare-and-set): each column's values as one array parameter — the ids first, then these columns,
   * then the versions. Returns the id and the new version of each row written; a row whose version moved is left
   * as it is. Ids must not repeat.
   */
  versionedUpdateMany(columns: readonly TaskColumn[]): Statement {
    const key = columns.map((col) => col.databaseName).join(',');
    let s = this.versionedUpdates.get(key);
    if (!s) {
      const { f } = this;
      const [id] = this.columns.of(['id']);
      const version = `t.${f.rowVersion!}`;
      const address = f.rowAddress!;
      const arrays = [id, ...columns].map((col, i) => f.columnArray!(i + 1, col));
      arrays.push(`${f.param(columns.length + 2)}::text[]`);
      const names = columns.map((_, i) => `c${i}`);
      const set = columns.map((col, i) => `${this.columns.name(col)} = v.${names[i]}`).join(', ');
      // Each row is looked up by id in a subquery the planner may not merge (OFFSET 0), then updated by address.
      // Joined straight on the id, PostgreSQL settled the prepared statement on a plan made while the table was
      // small — a hash join over a scan of the whole table — and kept it for the life of the connection, each
      // batch then reading every row (until autovacuum's next ANALYZE). A lookup per id and a fetch by address
      // stay the cheaper plan at any table size. A row written since the lookup fails the version check anyway.
      const at = `SELECT ${address} AS a FROM ${this.columns.table} WHERE ${this.c.id} = v.id OFFSET 0`;
      s = statement(
        `UPDATE ${this.columns.table} AS t SET ${set} ` +
          `FROM unnest(${arrays.join(', ')}) AS v(id, ${names.join(', ')}, ver), LATERAL (${at}) AS r ` +
          `WHERE t.${address} = r.a AND ${version} = v.ver ` +
          `RETURNING t.${this.c.id} AS id, ${version} AS ${ROW_VERSION}`,
      );
      this.versionedUpdates.set(key, s);
    }
    return s;
  }

  /** `RETURNING` the version an insert leaves the row at (`NULL` where the flavour has none: a row either way). */
  private returningVersion(): string {
    return ` RETURNING ${this.f.rowVersion ?? 'NULL'} AS ${ROW_VERSION}`;
  }

  /** Not terminal and not expired at `now` (a placeholder). */
  private live(now: string): string {
    const { status, expires } = this.c;
    return `${status} IN ${LIVE} AND (${expires} IS NULL OR ${expires} > ${now})`;
  }
}
