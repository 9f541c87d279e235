import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';
import { newTask, NO_LIMITS, T0 } from '@mcp-tasks/nestjs/testing';
// Internal: what `store: { type: 'typeorm' }` builds (not part of the public API).
import { hasResumableTasks } from '../../libs/mcp-tasks/src/store/capabilities/resumable-tasks.interface.js';
import { DataSourceTaskStore } from '../../libs/mcp-tasks/src/store/typeorm/data-source-task.store.js';

/** A ModuleRef whose first `failures` lookups fail, as while the app's TypeORM module is not ready. */
function flakyModuleRef(dataSource: DataSource, failures: number): ModuleRef {
  let left = failures;
  return {
    get: (token: unknown) => {
      if (token !== getDataSourceToken()) throw new Error(`unexpected token ${String(token)}`);
      if (left-- > 0) throw new Error('Nest could not find DataSource element');
      return dataSource;
    },
  } as unknown as ModuleRef;
}

/** A fresh SQLite database in memory with the store's schema. */
const inMemorySqlite = (): Promise<DataSource> =>
  new DataSource({
    type: 'better-sqlite3',
    database: ':memory:',
    entities: mcpTasksEntities,
    migrations: mcpTasksMigrations,
    migrationsRun: true,
  }).initialize();

describe('store { type: "typeorm" }: looking up the DataSource', () => {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await inMemorySqlite();
  });
  afterAll(() => dataSource.destroy());

  it('a failed lookup is not remembered: a later call finds the DataSource and works', async () => {
    const store = await DataSourceTaskStore.open(flakyModuleRef(dataSource, 2));
    const task = newTask();
    await expect(store.create(task, NO_LIMITS)).rejects.toThrow(/could not find DataSource/);
    await expect(store.get(task.id, T0)).rejects.toThrow(/could not find DataSource/);
    expect(await store.create(task, NO_LIMITS)).toBe('created');
    expect((await store.get(task.id, T0))?.id).toBe(task.id);
    expect(await store.dataSource()).toBe(dataSource);
  });

  it('once the DataSource is closed, every call fails as a rejection, never a throw', async () => {
    const closing = await inMemorySqlite();
    const store = await DataSourceTaskStore.open(flakyModuleRef(closing, 0));
    const task = newTask();
    expect(await store.create(task, NO_LIMITS)).toBe('created');
    await closing.destroy();
    const calls = [
      () => store.get(task.id, T0),
      () => store.update(task.id, { kind: 'progress', statusMessage: 'x' }, T0),
      () => store.sweep(T0, 10),
      () => store.statuses([task.id], T0),
    ];
    for (const call of calls) {
      let promise: Promise<unknown> | undefined;
      expect(() => (promise = call())).not.toThrow();
      await expect(promise).rejects.toThrow(/not (initialized|open)/);
    }
  });

  it('has ResumableTasks: renewal, hand-over and takeover go through to the TypeORM store', async () => {
    const store = await DataSourceTaskStore.open(flakyModuleRef(dataSource, 0));
    expect(hasResumableTasks(store)).toBe(true);
    const call = {
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
      principal: { key: 'alice', subject: 'alice', scopes: [] },
      requestId: 1,
    };
    const task = newTask({ leaseOwner: 'a', leaseExpiresAt: T0 + 60_000, resume: { args: {}, maxAttempts: 2, call } });
    await store.create(task, NO_LIMITS);
    expect(await store.renewLeases([task.id], 'b', T0 + 90_000)).toEqual([]);
    await store.releaseLeases([task.id], 'a');
    const notes = { statusMessage: (n: number) => `attempt ${n}`, exhausted: () => ({ code: 1, message: 'gave up' }) };
    const { adopted } = await store.adoptLapsedRuns(T0, 10, 'b', T0 + 90_000, notes);
    expect(adopted).toMatchObject([{ id: task.id, attempt: 2, leaseOwner: 'b', statusMessage: 'attempt 2' }]);
  });
});
