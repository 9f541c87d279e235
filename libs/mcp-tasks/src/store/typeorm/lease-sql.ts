import type { TaskColumns } from './task-columns.js';
import type { SqlFlavour } from './sql-flavour.js';
import { LIVE, statement, type Statement } from './task-sql.js';

/** Which lapsed leases a search finds: plain tasks (failed), mirrors of upstream tasks, or resumable runs. */
export type LapsedKind = 'tasks' | 'mirrors' | 'runs';

/**
 * The statements `TypeOrmTaskStore` moves leases with, written once per DataSource from the entity's columns: a
 * runner's heartbeat, a takeover, a hand-over, and the searches for leases that lapsed.
 */
export class LeaseSql {
  /**
   * Parameters owner, until, ids: renews each live task among the ids whose lease the owner holds or nobody does
   * (never one another instance took over); returns the ids renewed.
   */
  readonly renew: Statement;
  /** Parameters owner, until, ids: gives each live task among the ids to the owner, whoever held it (a takeover). */
  readonly take: Statement;
  /** Parameters ids, owner: lapses the lease of each live task among the ids the owner holds (no holder, epoch). */
  readonly release: Statement;
  private readonly lapsed: Record<LapsedKind, Statement>;

  constructor(columns: TaskColumns, f: SqlFlavour) {
    const ownerColumn = columns.of(['ownerKey'])[0];
    const [id, status, expires, leaseOwner, leaseExpires, upstream, resume, owner] = columns
      .of(['id', 'status', 'expiresAt', 'leaseOwner', 'leaseExpiresAt', 'upstream', 'resume', 'ownerKey'])
      .map((col) => columns.name(col));
    const t = columns.table;
    const list = columns.all.map((col) => columns.name(col)).join(', ');
    const p = (n: number) => f.param(n);
    // A heartbeat and a hand-over lock their rows in id order, as batched task writes do (see `lockedInIdOrder`):
    // an instance renews the very tasks whose progress it writes meanwhile.
    const ordered = (where: string) => f.lockedInIdOrder?.(t, id, where) ?? where;
    const setLease = `UPDATE ${t} SET ${leaseOwner} = ${p(1)}, ${leaseExpires} = ${p(2)}`;
    const mine = `(${leaseOwner} = ${p(1)} OR ${leaseOwner} IS NULL)`;
    this.renew = statement(
      `${setLease} WHERE ${ordered(`${f.idIn(id, 3)} AND ${status} IN ${LIVE} AND ${mine}`)} RETURNING ${id} AS id`,
    );
    // In the transaction that picked the rows with SKIP LOCKED: they are its own already.
    this.take = statement(`${setLease} WHERE ${f.idIn(id, 3)} AND ${status} IN ${LIVE}`);
    // Expiry 0, not the caller's clock: lapsed before any `now`, and first in line for the next takeover.
    this.release = statement(
      `UPDATE ${t} SET ${leaseOwner} = NULL, ${leaseExpires} = 0 ` +
        `WHERE ${ordered(`${f.idIn(id, 1)} AND ${leaseOwner} = ${p(2)} AND ${status} IN ${LIVE}`)}`,
    );
    // Parameter 3 of mirrors and runs: a text the owner keys of one server contain ('' for every server), matched
    // without LIKE's patterns and SQLite's case folding; the store confirms each row with the parsed key.
    const needle = f.param(3, ownerColumn);
    const ofServer = `(${needle} = '' OR LENGTH(REPLACE(${owner}, ${needle}, '')) < LENGTH(${owner}))`;
    const which: Record<LapsedKind, string> = {
      tasks: `${upstream} IS NULL AND ${resume} IS NULL`,
      mirrors: `${upstream} IS NOT NULL AND ${ofServer}`,
      runs: `${resume} IS NOT NULL AND ${ofServer}`,
    };
    const lapsed = (kind: LapsedKind) =>
      statement(
        `SELECT ${list} FROM ${t} WHERE ${status} IN ${LIVE} AND (${expires} IS NULL OR ${expires} > ${p(1)}) ` +
          `AND ${leaseExpires} < ${p(1)} AND ${which[kind]} ` +
          `ORDER BY ${leaseExpires} ASC LIMIT ${p(2)}${f.lockRowsSkipLocked}`,
      );
    this.lapsed = { tasks: lapsed('tasks'), mirrors: lapsed('mirrors'), runs: lapsed('runs') };
  }

  /**
   * Live, unexpired tasks of this kind whose lease lapsed before parameter 1, oldest lapse first, at most parameter
   * 2 of them; rows another transaction holds are skipped. Mirrors and runs take parameter 3 (see `serverKeyNeedle`).
   */
  lapsedLeases(kind: LapsedKind): Statement {
    return this.lapsed[kind];
  }
}
