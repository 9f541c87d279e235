import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import {
  AddMcpTasksResume1796236800000,
  mcpTasksEntities,
  mcpTasksMigrations,
  TypeOrmTaskStore,
} from '@mcp-tasks/nestjs/typeorm';
import { T0 } from '@mcp-tasks/nestjs/testing';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

/** This migration and any after it, in the order they run: undone together, from the last. */
const FROM_IT = mcpTasksMigrations
  .slice(mcpTasksMigrations.indexOf(AddMcpTasksResume1796236800000))
  .map((M) => new M().name);
/** What a store writes when a run's lease lapses (the testing entry keeps it to its own contract). */
const LOST = { code: -32603, message: 'Task runner lost', data: { reason: 'lease' } };
const NOTES = {
  statusMessage: (attempt: number) => `attempt ${attempt}`,
  exhausted: (attempts: number) => ({ code: -32603, message: `gave up after ${attempts}` }),
};

const dir = mkdtempSync(join(tmpdir(), 'mcp-resume-migration-'));
let pg: TestPostgres | undefined;
const DATABASES: Array<[string, () => Promise<DataSourceOptions>]> = [
  ['SQLite', async () => ({ type: 'better-sqlite3', database: join(dir, 'tasks.sqlite') })],
  ['PostgreSQL', async () => ({ type: 'postgres', url: (pg ??= await startPostgres()).url })],
];
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(DATABASES)('tasks stored before resumable tasks, on %s', (_name, options) => {
  let ds: DataSource;
  let store: TypeOrmTaskStore;
  const $ = (n: number) => (ds.options.type === 'postgres' ? `$${n}` : '?');
  /** A live task as the release before stored it (no attempt, checkpoint nor resume column), leased by node-a. */
  const insert = (id: string, status: string, leaseExpiresAt: number) =>
    ds.query(
      `INSERT INTO mcp_tasks (id, owner_key, tool, status, input_requests, input_responses, required_scopes,
        created_at, updated_at, expires_at, lease_owner, lease_expires_at)
        VALUES (${$(1)}, 'v1:["alice"]', 'export', ${$(2)}, '{}', '{"a":"A"}', '[]', ${$(3)}, ${$(4)}, ${$(5)},
        'node-a', ${$(6)})`,
      [id, status, T0, T0, T0 + 600_000, leaseExpiresAt],
    );
  const columnsOfTable = async () => {
    const runner = ds.createQueryRunner();
    try {
      return ((await runner.getTable('mcp_tasks'))?.columns ?? []).map((c) => c.name);
    } finally {
      await runner.release();
    }
  };

  beforeAll(async () => {
    ds = await new DataSource({
      ...(await options()),
      entities: mcpTasksEntities,
      migrations: mcpTasksMigrations,
    }).initialize();
    // The database of the release before: every migration before this one.
    await ds.runMigrations();
    for (let i = 0; i < FROM_IT.length; i++) await ds.undoLastMigration();
    await insert('running', 'working', T0 + 60_000);
    await insert('lapsed', 'working', T0);
    await insert('done', 'completed', T0);
    expect((await ds.runMigrations()).map((m) => m.name)).toEqual(FROM_IT);
    store = new TypeOrmTaskStore(ds);
  }, 60_000);
  afterAll(async () => ds?.destroy());

  it('every earlier row is at its first attempt, with no checkpoint and not resumable', async () => {
    const rows: Array<{ id: string; attempt: number }> = await ds.query('SELECT id, attempt FROM mcp_tasks');
    expect(rows.map((r) => [r.id, Number(r.attempt)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual(
      [
        ['done', 1],
        ['lapsed', 1],
        ['running', 1],
      ],
    );
    const task = await store.get('running', T0 + 1);
    expect(task).toMatchObject({ id: 'running', status: 'working', inputResponses: { a: 'A' }, leaseOwner: 'node-a' });
    expect([task?.attempt ?? 1, task?.checkpoint, task?.resume]).toEqual([1, undefined, undefined]);
  });

  it("the first attempt's writes apply to them, another attempt's do not; checkpoints are stored", async () => {
    expect(await store.update('running', { kind: 'progress', statusMessage: 'x', attempt: 2 }, T0 + 2)).toMatchObject({
      changed: false,
    });
    expect(
      await store.update('running', { kind: 'checkpoint', value: { rows: 10 }, attempt: 1 }, T0 + 3),
    ).toMatchObject({ changed: true });
    const read = await store.get('running', T0 + 3);
    expect([read?.statusMessage, read?.checkpoint]).toEqual([undefined, { rows: 10 }]);
    expect(await store.renewLeases(['running', 'lapsed'], 'node-b', T0 + 90_000)).toEqual([]);
  });

  it('a lapsed earlier task is not resumable: it is failed as before, never taken over', async () => {
    expect(await store.adoptLapsedRuns(T0 + 5, 10, 'node-b', T0 + 90_000, NOTES)).toEqual({
      adopted: [],
      exhausted: [],
    });
    expect(await store.reclaimExpiredLeases(T0 + 5, 10, LOST)).toEqual(['lapsed']);
  });

  it('reverted, the columns are gone and the rows kept; run again, they are back', async () => {
    for (let i = 0; i < FROM_IT.length; i++) await ds.undoLastMigration();
    const columns = await columnsOfTable();
    expect(columns.filter((c) => ['attempt', 'checkpoint', 'resume'].includes(c))).toEqual([]);
    expect(await ds.query('SELECT id FROM mcp_tasks ORDER BY id')).toEqual([
      { id: 'done' },
      { id: 'lapsed' },
      { id: 'running' },
    ]);
    expect((await ds.runMigrations()).map((m) => m.name)).toEqual(FROM_IT);
    expect(await columnsOfTable()).toEqual(expect.arrayContaining(['attempt', 'checkpoint', 'resume']));
    expect((await store.get('running', T0 + 6))?.attempt ?? 1).toBe(1);
  });
});
