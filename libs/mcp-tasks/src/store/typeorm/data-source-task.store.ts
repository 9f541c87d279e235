import type { ModuleRef } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { cjsExports, loadPeer } from '../../peers/optional-peer.js';
import type { TaskError, TaskStatus } from '../../protocol/wire.interface.js';
import type { LapsedRuns, ResumableTasks } from '../capabilities/resumable-tasks.interface.js';
import type { SharedTaskStore } from '../capabilities/shared-task-store.interface.js';
import type { TaskListing } from '../capabilities/task-listing.interface.js';
import type { TaskMirrors } from '../capabilities/task-mirrors.interface.js';
import type { TaskQueries } from '../capabilities/task-queries.interface.js';
import type { PostgresConnectionConfig } from '../postgres-connection.config.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import type { TaskStore } from '../task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from '../task.record.js';
import { postgresConnectionOf } from './postgres-connection.js';
import type { TypeOrmTaskStore } from './typeorm-task.store.js';

type NestTypeorm = { getDataSourceToken(name?: string): unknown };
type StoreEntry = { TypeOrmTaskStore: new (ds: DataSource) => TypeOrmTaskStore };

/**
 * `store: { type: 'typeorm' }`: a `TypeOrmTaskStore` on the app's own TypeORM connection
 * (`TypeOrmModule.forRoot`, optionally named). Built by `open()` at startup, which loads TypeORM (an
 * optional peer); the connection itself is looked up on first use — it belongs to another module
 * that may not be ready when this one is built.
 */
export class DataSourceTaskStore
  implements TaskStore, TaskListing, TaskMirrors, TaskQueries, ResumableTasks, SharedTaskStore
{
  readonly sharedAcrossProcesses = true;
  private inner?: Promise<TypeOrmTaskStore>;
  /** The store once built: calls then go straight to it, without waiting on `inner` each time. */
  private ready?: TypeOrmTaskStore;
  private source?: Promise<DataSource>;

  private constructor(
    private readonly moduleRef: ModuleRef,
    private readonly name: string | undefined,
    private readonly nest: NestTypeorm,
    private readonly entry: StoreEntry,
  ) {}

  /** Loads `typeorm` and `@nestjs/typeorm`, failing startup with what to install when either is missing. */
  static async open(moduleRef: ModuleRef, name?: string): Promise<DataSourceTaskStore> {
    const feature = 'store { type: "typeorm" }';
    await loadPeer('typeorm', feature);
    const nest = cjsExports<NestTypeorm>(await loadPeer('@nestjs/typeorm', feature));
    const entry = (await import('./index.js')) as StoreEntry;
    return new DataSourceTaskStore(moduleRef, name, nest, entry);
  }

  /** The app's DataSource. */
  dataSource(): Promise<DataSource> {
    // A failed lookup (the connection's module not ready yet) is not remembered: the next call asks again.
    this.source ??= Promise.resolve()
      .then(() => this.moduleRef.get<DataSource>(this.nest.getDataSourceToken(this.name) as string, { strict: false }))
      .catch((err: unknown) => {
        this.source = undefined;
        throw err;
      });
    return this.source;
  }

  /** The connection settings of the DataSource's database, when it is PostgreSQL. */
  async postgresConnection(): Promise<string | PostgresConnectionConfig> {
    return postgresConnectionOf(await this.dataSource());
  }

  private store(): Promise<TypeOrmTaskStore> {
    this.inner ??= this.dataSource().then(
      (ds) => (this.ready = new this.entry.TypeOrmTaskStore(ds)),
      (err: unknown) => {
        this.inner = undefined;
        throw err;
      },
    );
    return this.inner;
  }

  create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome> {
    return this.on((s) => s.create(task, limits));
  }
  get(id: string, now: number): Promise<TaskRecord | undefined> {
    return this.on((s) => s.get(id, now));
  }
  update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    return this.on((s) => s.update(id, change, now));
  }
  sweep(now: number, limit: number): Promise<number> {
    return this.on((s) => s.sweep(now, limit));
  }
  renewLeases(ids: string[], owner: string, until: number): Promise<string[]> {
    return this.on((s) => s.renewLeases(ids, owner, until));
  }
  reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    return this.on((s) => s.reclaimExpiredLeases(now, limit, error));
  }
  listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    return this.on((s) => s.listByOwner(query, now));
  }
  adoptLapsedMirrors(now: number, limit: number, owner: string, until: number, server?: string) {
    return this.on((s) => s.adoptLapsedMirrors(now, limit, owner, until, server));
  }
  adoptLapsedRuns(
    now: number,
    limit: number,
    owner: string,
    until: number,
    notes: Parameters<ResumableTasks['adoptLapsedRuns']>[4],
    server?: string,
  ): Promise<LapsedRuns> {
    return this.on((s) => s.adoptLapsedRuns(now, limit, owner, until, notes, server));
  }
  releaseLeases(ids: string[], owner: string): Promise<void> {
    return this.on((s) => s.releaseLeases(ids, owner));
  }
  statuses(ids: string[], now: number): Promise<Map<string, TaskStatus>> {
    return this.on((s) => s.statuses(ids, now));
  }
  listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return this.on((s) => s.listTasks(query, now));
  }
  taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return this.on((s) => s.taskCounts(query, now));
  }
  taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return this.on((s) => s.taskActivity(query, now));
  }

  /** `work` on the store; the TypeORM store's methods report every failure as a rejection, never a throw. */
  private on<T>(work: (store: TypeOrmTaskStore) => Promise<T>): Promise<T> {
    if (!this.ready) return this.store().then(work);
    return work(this.ready);
  }
}
