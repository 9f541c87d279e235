import type { ModuleRef } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import type { TaskError, TaskStatus } from '../protocol/wire.types.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from './task-queries.js';
import type { TaskStore } from './task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from './task.record.js';

/** The `store: { type: 'typeorm' }` option: tasks in the app's TypeORM database. */
export interface TypeOrmStoreConfig {
  type: 'typeorm';
  /**
   * Name of the app's TypeORM connection (as given to `TypeOrmModule.forRoot({ name })`).
   * @default the unnamed (default) connection
   */
  dataSource?: string;
}

type NestTypeorm = { getDataSourceToken(name?: string): unknown };
type StoreEntry = { TypeOrmTaskStore: new (ds: DataSource) => TaskStore };

/**
 * `store: { type: 'typeorm' }`: a `TypeOrmTaskStore` on the app's own TypeORM connection
 * (`TypeOrmModule.forRoot`, optionally named). Built by `open()` at startup, which loads TypeORM (an
 * optional peer); the connection itself is looked up on first use — it belongs to another module
 * that may not be ready when this one is built.
 */
export class DataSourceTaskStore implements TaskStore {
  private inner?: Promise<TaskStore>;
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
    const entry = (await import('./typeorm/index.js')) as StoreEntry;
    return new DataSourceTaskStore(moduleRef, name, nest, entry);
  }

  /** The app's DataSource (also used to reach PostgreSQL for the event bus). */
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

  private store(): Promise<TaskStore> {
    this.inner ??= this.dataSource().then(
      (ds) => new this.entry.TypeOrmTaskStore(ds),
      (err: unknown) => {
        this.inner = undefined;
        throw err;
      },
    );
    return this.inner;
  }

  async create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome> {
    return (await this.store()).create(task, limits);
  }
  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    return (await this.store()).get(id, now);
  }
  async update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    return (await this.store()).update(id, change, now);
  }
  async sweep(now: number, limit: number): Promise<number> {
    return (await this.store()).sweep(now, limit);
  }
  async renewLeases(ids: string[], owner: string, until: number): Promise<void> {
    return (await this.store()).renewLeases(ids, owner, until);
  }
  async reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    return (await this.store()).reclaimExpiredLeases(now, limit, error);
  }
  async listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    return (await this.store()).listByOwner!(query, now);
  }
  async adoptLapsedMirrors(now: number, limit: number, owner: string, until: number): Promise<TaskRecord[]> {
    return (await this.store()).adoptLapsedMirrors!(now, limit, owner, until);
  }
  async statuses(ids: string[], now: number): Promise<Map<string, TaskStatus>> {
    return (await this.store()).statuses!(ids, now);
  }
  async listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return (await this.store()).listTasks!(query, now);
  }
  async taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return (await this.store()).taskCounts!(query, now);
  }
  async taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return (await this.store()).taskActivity!(query, now);
  }
}
