import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { MemoryTaskStore, type TaskRecord, type TaskStore } from '@mcp-tasks/nestjs';
import { mcpTasksEntities, mcpTasksMigrations, TypeOrmTaskStore } from '@mcp-tasks/nestjs/typeorm';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { listen } from './support/listen.js';
import { call, TASKS, updateTask } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

const FULL = { ...TASKS, elicitation: {} };
const yes = { action: 'accept', content: { ok: true } };

/**
 * Makes the first read that finds the task waiting for `b` — the listener's, right after the tool asked — come back
 * late (a slow connection of a pool), so it answers after reads started later, once the task completed. Returns
 * the undelayed read.
 */
function slowStaleRead(store: TaskStore): (id: string) => Promise<TaskRecord | undefined> {
  const get = store.get.bind(store);
  let delayed = false;
  store.get = async (id, now) => {
    const task = await get(id, now);
    if (!delayed && task?.status === 'input_required' && task.inputRequests.b) {
      delayed = true;
      await sleep(1_500);
    }
    return task;
  };
  return (id) => get(id, Date.now());
}

describe.each(['memory', 'postgres'])('listen: per task, notifications follow the store (%s)', (kind) => {
  let db: TestPostgres | undefined;
  let ds: DataSource | undefined;
  let app: INestApplication;
  let peek: (id: string) => Promise<TaskRecord | undefined>;
  beforeAll(async () => {
    let store: TaskStore = new MemoryTaskStore();
    if (kind === 'postgres') {
      db = await startPostgres();
      ds = await new DataSource({
        type: 'postgres',
        url: db.url,
        entities: mcpTasksEntities,
        migrations: mcpTasksMigrations,
        migrationsRun: true,
      }).initialize();
      store = new TypeOrmTaskStore(ds);
    }
    peek = slowStaleRead(store);
    app = await createFixtureApp({ store });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await ds?.destroy();
    await db?.stop();
  });

  it('never a stale input_required after completed', async () => {
    const id = (await call(app, 'ask', {}, { caps: FULL })).body.result.taskId as string;
    await until('asked a', async () => (await peek(id))?.inputRequests.a);
    const s = await listen(app, { taskIds: [id] }, { caps: TASKS });
    await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
    await updateTask(app, id, { a: yes });
    await until('asked b', async () => (await peek(id))?.inputRequests.b);
    await updateTask(app, id, { b: yes });
    await s.next((f) => f.method === 'notifications/tasks' && f.params.status === 'completed', 5_000);
    // Room for the late read to land.
    await sleep(2_000);
    const statuses = s.frames
      .filter((f) => f.method === 'notifications/tasks')
      .map((f) => `${f.params.status}:${Object.keys(f.params.inputRequests ?? {}).join()}`);
    s.close();
    expect(statuses.at(-1)).toBe('completed:');
    expect(statuses.filter((v) => v === 'completed:')).toHaveLength(1);
    expect(statuses.indexOf('input_required:b')).toBeLessThan(statuses.indexOf('completed:'));
  });
});
