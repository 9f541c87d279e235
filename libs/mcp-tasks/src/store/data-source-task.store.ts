import type { ModuleRef } from '@nestjs/core';
import type { DataSource } from 'typeorm';
import type { TaskError } from '../protocol/wire.types.js';
import type { TaskStore } from './task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from './task.record.js';

/**
 * `store: { type: 'typeorm' }`: a `TypeOrmTaskStore` on the app's own TypeORM connection
 * (`TypeOrmModule.forRoot`, optionally named). The connection is looked up on first use — it belongs
 * to another module that may not be ready when this one is built — and TypeORM is only loaded then.
 */
export class DataSourceTaskStore implements TaskStore {
  private inner?: Promise<TaskStore>;
  private source?: Promise<DataSource>;

  constructor(private readonly moduleRef: ModuleRef, private readonly name?: string) {}

  /** The app's DataSource (also used to reach PostgreSQL for the event bus). */
  dataSource(): Promise<DataSource> {
    this.source ??= import('@nestjs/typeorm').then(({ getDataSourceToken }) =>
      this.moduleRef.get<DataSource>(getDataSourceToken(this.name) as string, { strict: false }),
    );
    return this.source;
  }

  private store(): Promise<TaskStore> {
    this.inner ??= Promise.all([this.dataSource(), import('./typeorm/index.js')]).then(([ds, m]) => new m.TypeOrmTaskStore(ds));
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
}
