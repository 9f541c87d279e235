import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { LocalTaskEventBus, McpTasksModule, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { call, TASKS, waitForTask } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

/** Leases are read every two lease periods: 2 s here. */
const LEASE = 1_000;
const CHECK_EVERY = 2 * LEASE;

const warnings: string[] = [];
const logger: LoggerService = {
  log: () => undefined,
  error: () => undefined,
  warn: (message: unknown) => void warnings.push(String(message)),
};
const busWarnings = () => warnings.filter((w) => w.includes('the event bus is in-process'));

describe('the in-process bus on a shared store: warned only once another instance is seen', () => {
  let pg: TestPostgres;
  let db: DataSource;
  const apps: INestApplication[] = [];

  async function instance(options: Partial<McpTasksModuleOptions> = {}): Promise<INestApplication> {
    const ref = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({
          type: 'postgres',
          url: pg.url,
          entities: mcpTasksEntities,
          migrations: mcpTasksMigrations,
          migrationsRun: true,
        }),
        McpTasksModule.forRoot({
          server: { name: 'shared', version: '1' },
          store: { type: 'typeorm' },
          lease: LEASE,
          pollInterval: 100,
          shutdownGrace: 100,
          ...options,
        }),
        FixtureToolsModule,
      ],
    }).compile();
    const app = ref.createNestApplication({ logger });
    await app.listen(0, '127.0.0.1');
    apps.push(app);
    return app;
  }
  /** A task that runs (its lease held by `app`) for a minute; returns the instance holding its lease. */
  async function longTask(app: INestApplication): Promise<string> {
    const id = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId as string;
    const [{ lease_owner }] = (await db.query('SELECT lease_owner FROM mcp_tasks WHERE id = $1', [id])) as {
      lease_owner: string;
    }[];
    return lease_owner;
  }

  beforeAll(async () => {
    pg = await startPostgres();
    db = new DataSource({ type: 'postgres', url: pg.url, entities: mcpTasksEntities, migrations: mcpTasksMigrations });
    await db.initialize();
    await db.runMigrations();
  }, 60_000);
  afterAll(async () => {
    while (apps.length) await apps.pop()!.close();
    await db?.destroy();
    await pg?.stop();
  });
  beforeEach(async () => {
    while (apps.length) await apps.pop()!.close();
    await db.query('DELETE FROM mcp_tasks');
    warnings.length = 0;
  });

  it('one instance, after a task ran and while one runs, and past a dead predecessor: no warning', async () => {
    // A predecessor that died a moment ago, its lease not lapsed yet when this instance starts (a restart).
    await db.query(
      `INSERT INTO mcp_tasks (id, owner_key, tool, status, input_requests, input_responses, required_scopes,
        created_at, updated_at, expires_at, lease_owner, lease_expires_at)
       VALUES ('dead-one', $1, 'wait', 'working', '{}', '{}', '[]', $2, $2, NULL, 'dead-instance', $3)`,
      [JSON.stringify(['', 'shared', '', '']), Date.now(), Date.now() + LEASE],
    );
    const app = await instance();
    const done = (await call(app, 'wait', { ms: 50 }, { caps: TASKS })).body.result.taskId as string;
    expect((await waitForTask(app, done)).status).toBe('completed');
    await longTask(app);
    await sleep(3 * CHECK_EVERY + 500);
    expect(busWarnings()).toEqual([]);
  }, 60_000);

  it('two instances, tasks running on each: one warning on each, naming the other and the fix', async () => {
    const a = await instance();
    const b = await instance();
    const onA = await longTask(a);
    const onB = await longTask(b);
    expect(onA).not.toBe(onB);
    await until('both warned', () => busWarnings().length >= 2, 20_000);
    await sleep(2 * CHECK_EVERY + 500); // no second warning
    const seen = busWarnings().map((w) => {
      const [, self, other] = /^server "shared" \(instance ([\w-]+)\): instance ([\w-]+) runs tasks/.exec(w) ?? [];
      return `${self} sees ${other}`;
    });
    expect(seen.sort()).toEqual([`${onA} sees ${onB}`, `${onB} sees ${onA}`].sort());
    for (const w of busWarnings()) {
      expect(w).toContain('reach a task running on another only when that one re-reads the store');
      expect(w).toContain("set bus: { type: 'postgres' }");
      expect(w).toContain('pass it: bus: new LocalTaskEventBus()');
    }
  }, 60_000);

  it('two instances that chose the in-process bus (bus: new LocalTaskEventBus()): no warning', async () => {
    const a = await instance({ bus: new LocalTaskEventBus() });
    const b = await instance({ bus: new LocalTaskEventBus() });
    await longTask(a);
    await longTask(b);
    await sleep(3 * CHECK_EVERY + 500);
    expect(busWarnings()).toEqual([]);
  }, 60_000);

  it("another registration's tasks in the same store are not another instance of this server", async () => {
    const a = await instance();
    const other = await instance({ server: { name: 'elsewhere', version: '1' } });
    await longTask(a);
    await longTask(other);
    await sleep(3 * CHECK_EVERY + 500);
    // Each registration sees only the other server's leases: no instance of its own server.
    expect(busWarnings()).toEqual([]);
  }, 60_000);
});
