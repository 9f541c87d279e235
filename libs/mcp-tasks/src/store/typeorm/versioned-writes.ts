import type { TaskRecord } from '../task.record.js';
import { CoalescedWrites } from './coalesced-writes.js';
import type { StoreDialect } from './store-dialect.js';
import type { TaskColumns } from './task-columns.js';
import { changedColumns } from './task-row.mapper.js';
import { ROW_VERSION, type TaskSql } from './task-sql.js';

/**
 * Statements in flight at once. One was not enough: at 50 clients creating one-owner tasks that finish at once,
 * finishing writes fell behind the creates, so unfinished tasks piled up against the owner's cap.
 */
const LANES = 4;

/** A task's new record, to be written only while its row is still at `version`. */
type VersionedWrite = { task: TaskRecord; version: unknown };
/** How one write went: the row's new version (`undefined`: the row had moved on), or why it failed. */
type Written = { version: unknown } | { error: unknown };

/**
 * A task's compare-and-set (what a change may move, only while the row is at the version it was read at), several
 * tasks to one UPDATE: those asked for while every lane is busy share the next, so finishing tasks cost one
 * statement and one commit per batch, not one each. Each write is committed before its caller hears of it.
 */
export class VersionedWrites {
  private readonly batches = new CoalescedWrites<VersionedWrite, Written>((writes) => this.writeMany(writes), LANES);

  constructor(
    private readonly dialect: StoreDialect,
    private readonly sql: TaskSql,
    private readonly columns: TaskColumns,
  ) {}

  /** The row's new version once written; `undefined` when another write had moved it on (nothing written). */
  async write(task: TaskRecord, version: unknown): Promise<unknown> {
    const written = await this.batches.add('', { task, version });
    if ('error' in written) throw written.error;
    return written.version;
  }

  /**
   * A task twice in the batch is written after the others, by the next statement: in one UPDATE both writes would
   * match the same row and both be told they won. A statement that fails is tried again one write at a time, so
   * a value the database refuses (a NUL in a status message) fails its own write, not its neighbours'.
   */
  private async writeMany(writes: VersionedWrite[]): Promise<Written[]> {
    const ids = new Set<string>();
    const first = new Set(writes.filter((w) => !ids.has(w.task.id) && ids.add(w.task.id)));
    const batch = [...first];
    let versions: Map<string, unknown> | undefined;
    let failed: unknown;
    try {
      versions = await this.send(batch);
    } catch (err) {
      failed = err;
    }
    const alone = !versions && batch.length > 1 ? await Promise.all(batch.map((w) => this.writeMany([w]))) : [];
    const later = batch.length < writes.length ? await this.writeMany(writes.filter((w) => !first.has(w))) : [];
    let next = 0;
    return writes.map((w): Written => {
      if (!first.has(w)) return later[next++];
      if (versions) return { version: versions.get(w.task.id) };
      return batch.length > 1 ? alone[batch.indexOf(w)][0] : { error: failed };
    });
  }

  /** One UPDATE for writes of distinct tasks: the new version of each row written. */
  private async send(writes: VersionedWrite[]): Promise<Map<string, unknown>> {
    // Rows locked in the byte order of their ids, as renewals lock them (see `SqlFlavour.lockedInIdOrder`): the
    // statement updates them in the order of its arrays. Ids are ASCII, so `<` is that order.
    const batch = [...writes].sort((a, b) => (a.task.id < b.task.id ? -1 : 1));
    const columns = this.columns.of(Object.keys(changedColumns(batch[0].task)));
    const rows = batch.map((w) => this.columns.encode(changedColumns(w.task), columns));
    const params = [
      batch.map((w) => w.task.id),
      ...columns.map((_, i) => rows.map((row) => row[i])),
      batch.map((w) => w.version),
    ];
    const written = await this.dialect.one.rows(this.sql.versionedUpdateMany(columns), params);
    return new Map(written.map((row) => [row.id as string, row[ROW_VERSION]]));
  }
}
