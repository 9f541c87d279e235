import type { DataSource } from 'typeorm';
import { isTerminal, type TaskError, type TaskStatus } from '../../protocol/wire.interface.js';
import { applyTaskChange } from '../apply-task-change.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import type { LapsedRuns, ResumableTasks } from '../capabilities/resumable-tasks.interface.js';
import type { SharedTaskStore } from '../capabilities/shared-task-store.interface.js';
import type { TaskListing } from '../capabilities/task-listing.interface.js';
import type { TaskMirrors } from '../capabilities/task-mirrors.interface.js';
import type { TaskQueries } from '../capabilities/task-queries.interface.js';
import type { PostgresConnectionConfig } from '../postgres-connection.config.js';
import type { TaskStore } from '../task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from '../task.record.js';
import { dialectFor } from './dialect.factory.js';
import { postgresConnectionOf } from './postgres-connection.js';
import { BatchedReads } from './batched-reads.js';
import { insertCapped, insertCappedOne } from './capped-insert.batch.js';
import { CoalescedWrites } from './coalesced-writes.js';
import { VersionedWrites } from './versioned-writes.js';
import { KnownVersions } from './known-versions.js';
import { InOrderQueue } from './in-order.queue.js';
import type { McpTaskEntity } from './mcp-task.entity.js';
import type { StoreDialect } from './store-dialect.js';
import { toRecord, toRow } from './task-row.mapper.js';
import { TaskColumns, type RawRow } from './task-columns.js';
import { ROW_VERSION, TaskSql, type Statement } from './task-sql.js';
import { taskActivity, taskCounts } from './typeorm-task-stats.queries.js';
import { TypeOrmLeases } from './typeorm-task.leases.js';
import { listByOwner, listTasks } from './typeorm-task.queries.js';
import { writeChange } from './write-change.js';

/** Ids per statement when renewing leases: a bounded statement however many tasks an instance runs. */
const ID_CHUNK = 500;

const unexpired = (row: { expiresAt: number | null }, now: number): boolean =>
  row.expiresAt === null || row.expiresAt > now;

/**
 * Tasks in the `mcp_tasks` table of a TypeORM DataSource (PostgreSQL or better-sqlite3), shared by
 * every instance that uses the same database. The DataSource must be initialized, list
 * `mcpTasksEntities`, and have run `mcpTasksMigrations`. Transition rules come from `applyTaskChange`;
 * this class only makes each read-apply-write atomic. Its own statements are plain SQL written once
 * from the entity's metadata (`TaskSql`) and sent through the DataSource's driver: no query builder
 * or entity hydration per call. The console's queries still use TypeORM. It has every capability: its tasks are
 * shared by every process on the database (`SharedTaskStore`, with the PostgreSQL connection on PostgreSQL).
 * @publicApi
 */
export class TypeOrmTaskStore
  implements TaskStore, TaskListing, TaskMirrors, TaskQueries, ResumableTasks, SharedTaskStore
{
  readonly sharedAcrossProcesses = true;
  private readonly dialect: StoreDialect;
  private readonly columns: TaskColumns;
  private readonly sql: TaskSql;
  private readonly versions = new KnownVersions();
  private readonly leases: TypeOrmLeases;
  /** A task's compare-and-set changes short of its finish, one at a time in call order. */
  private readonly inOrder = new InOrderQueue();
  private readonly reads?: BatchedReads<McpTaskEntity>;
  private readonly creates = new Map<string, CoalescedWrites<TaskRecord, CreateOutcome>>();
  /** Compare-and-set writes, several to a statement (where rows have versions). */
  private readonly casWrites?: VersionedWrites;

  constructor(private readonly dataSource: DataSource) {
    this.dialect = dialectFor(dataSource);
    this.columns = new TaskColumns(dataSource);
    this.sql = new TaskSql(this.columns, this.dialect.flavour);
    this.leases = new TypeOrmLeases(this.dialect, this.columns, this.sql, this.versions);
    const { flavour, one } = this.dialect;
    if (flavour.batchReads)
      this.reads = new BatchedReads(
        async (ids) => (await one.rows(this.sql.getMany, [flavour.idList(ids)])).map((raw) => this.columns.decode(raw)),
        (row) => row.id,
      );
    if (flavour.rowVersion) this.casWrites = new VersionedWrites(this.dialect, this.sql, this.columns);
  }

  async create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome> {
    const perOwner = limits.maxPerOwner !== Infinity;
    const total = limits.maxTotal !== Infinity;
    if (!perOwner && !total) {
      const [inserted] = await this.dialect.one.rows(
        this.sql.insert,
        this.columns.encode(toRow(task), this.columns.all),
      );
      this.remember(task, inserted);
      return 'created';
    }
    if (this.dialect.flavour.columnArray) {
      const key = `${limits.maxPerOwner}:${limits.maxTotal}`;
      let creates = this.creates.get(key);
      if (!creates) this.creates.set(key, (creates = new CoalescedWrites((tasks) => this.createMany(tasks, limits))));
      // Under the owners' caps alone, creates of any owners share a batch; a total cap counts one owner's at a time.
      return creates.add(total ? task.owner : '', task);
    }
    const { dialect, sql, columns } = this;
    const { outcome, row: inserted } = await insertCappedOne({ dialect, sql, columns }, task, limits);
    if (inserted) this.remember(task, inserted);
    return outcome;
  }

  private async createMany(tasks: TaskRecord[], limits: TaskLimits): Promise<CreateOutcome[]> {
    const { dialect, sql, columns } = this;
    const results = await insertCapped({ dialect, sql, columns }, tasks, limits);
    return results.map(({ outcome, row }, i) => {
      if (row) this.remember(tasks[i], row);
      return outcome;
    });
  }

  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    const row = this.reads ? await this.reads.read(id) : await this.readOne(id);
    return row && unexpired(row, now) ? toRecord(row) : undefined;
  }

  private async readOne(id: string): Promise<McpTaskEntity | undefined> {
    const [raw] = await this.dialect.one.rows(this.sql.get, [id]);
    return raw && this.columns.decode(raw);
  }

  update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    const versioned = this.sql.getVersioned;
    if (versioned) {
      const work = () => this.updateIfUnchanged(versioned, id, change, now);
      // A finish does not queue: it is final whichever change lands first (a later one then finds the task
      // finished), and waiting behind a progress kept tasks live longer, against the owner's cap.
      return change.kind === 'finish' ? work() : this.inOrder.run(id, work);
    }
    // SQLite: one connection, so changes reach the database in call order.
    return this.dialect.write(async (tx) => {
      // Locked read: a concurrent update of this task waits, then applies its change to our result.
      const [raw] = await tx.rows(this.sql.getForUpdate, [id]);
      const row = raw && this.columns.decode(raw);
      if (!row || !unexpired(row, now)) return undefined;
      const task = toRecord(row);
      const next = applyTaskChange(task, change, now);
      if (!next) return { task, changed: false };
      await writeChange(tx, this.sql, this.columns, next);
      return { task: next, changed: true };
    });
  }

  /**
   * Compare-and-set without a transaction: apply the change to the task as this store last wrote it, or else
   * as read with its row version, and write it only if the row is still at that version; when another write
   * came first (a concurrent change, a lease renewal), read again and apply the change to what it left.
   */
  private async updateIfUnchanged(
    read: Statement,
    id: string,
    change: TaskChange,
    now: number,
  ): Promise<UpdateOutcome | undefined> {
    const known = this.versions.take(id);
    if (known && unexpired(known.task, now)) {
      const next = applyTaskChange(known.task, change, now);
      if (next && (await this.writeIfAt(next, known.version))) return { task: next, changed: true };
    }
    for (;;) {
      const [raw] = await this.dialect.one.rows(read, [id]);
      const row = raw && this.columns.decode(raw);
      if (!row || !unexpired(row, now)) return undefined;
      const task = toRecord(row);
      const next = applyTaskChange(task, change, now);
      if (!next) return { task, changed: false };
      if (await this.writeIfAt(next, raw[ROW_VERSION])) return { task: next, changed: true };
    }
  }

  sweep(now: number, limit: number): Promise<number> {
    // One statement: its batch is picked with SKIP LOCKED, so instances sweep side by side without
    // waiting on each other (or on a task being updated).
    return this.dialect.one.changed(this.sql.sweep, [now, limit]);
  }

  renewLeases(ids: string[], owner: string, until: number): Promise<string[]> {
    return this.leases.renew(ids, owner, until);
  }

  /** Mirrors of upstream tasks and resumable runs are taken over instead (`adoptLapsedMirrors`, `adoptLapsedRuns`). */
  reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    return this.leases.reclaim(now, limit, error);
  }

  listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    return this.dialect.read((m) =>
      listByOwner({ m, columns: this.columns, flavour: this.dialect.flavour }, query, now),
    );
  }

  adoptLapsedMirrors(now: number, limit: number, owner: string, until: number, server?: string) {
    return this.leases.adoptMirrors(now, limit, owner, until, server);
  }

  adoptLapsedRuns(
    now: number,
    limit: number,
    owner: string,
    until: number,
    notes: Parameters<ResumableTasks['adoptLapsedRuns']>[4],
    server?: string,
  ): Promise<LapsedRuns> {
    return this.leases.adoptRuns(now, limit, owner, until, notes, server);
  }

  releaseLeases(ids: string[], owner: string): Promise<void> {
    return this.leases.release(ids, owner);
  }

  async statuses(ids: string[], now: number): Promise<Map<string, TaskStatus>> {
    const out = new Map<string, TaskStatus>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = this.dialect.flavour.idList(ids.slice(i, i + ID_CHUNK));
      const rows = await this.dialect.one.rows(this.sql.statuses, [chunk, now]);
      for (const row of rows) out.set(row.id as string, row.status as TaskStatus);
    }
    return out;
  }

  listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return this.dialect.read((m) => listTasks(m, query, now));
  }

  taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return this.dialect.read((m) => taskCounts(m, query, now));
  }

  taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return this.dialect.read((m) => taskActivity(m, query, now));
  }

  /** The connection settings of the DataSource's database, when it is PostgreSQL. */
  async postgresConnection(): Promise<string | PostgresConnectionConfig> {
    return postgresConnectionOf(this.dataSource);
  }

  /** An inserted task's row version, for its next compare-and-set. */
  private remember(task: TaskRecord, inserted: RawRow | undefined): void {
    if (inserted && this.dialect.flavour.rowVersion) this.versions.remember(task, inserted[ROW_VERSION]);
  }

  /** Writes what a change may move if the row is still at `version`; whether it did. */
  private async writeIfAt(task: TaskRecord, version: unknown): Promise<boolean> {
    const written = await this.casWrites!.write(task, version);
    // A finished task takes no more changes: nothing to remember.
    if (written !== undefined && !isTerminal(task.status)) this.versions.remember(task, written);
    return written !== undefined;
  }
}
