import 'reflect-metadata';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import {
  McpTasksHealthIndicator,
  McpTasksModule,
  MemoryTaskStore,
  type McpTasksModuleOptions,
  type TaskEvent,
  type TaskEventBus,
} from '@mcp-tasks/nestjs';
import { mcpTasksEntities, mcpTasksMigrations, TypeOrmTaskStore } from '@mcp-tasks/nestjs/typeorm';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { call, TASKS } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

const warnings: string[] = [];
const logger: LoggerService = {
  log: () => undefined,
  error: () => undefined,
  warn: (message: unknown) => void warnings.push(String(message)),
};
const busWarnings = () => warnings.filter((w) => w.includes('the event bus is in-process'));

const apps: INestApplication[] = [];
async function boot(options: Partial<McpTasksModuleOptions>): Promise<INestApplication> {
  const ref = await Test.createTestingModule({
    imports: [
      McpTasksModule.forRoot({ server: { name: 'caps', version: '1' }, shutdownGrace: 100, ...options }),
      FixtureToolsModule,
    ],
  }).compile();
  const app = ref.createNestApplication({ logger });
  await app.listen(0, '127.0.0.1');
  apps.push(app);
  return app;
}
const health = (app: INestApplication) => app.get(McpTasksHealthIndicator).check();

afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
  warnings.length = 0;
});

/** A bus that relays between instances and says whether it is connected now (`health()`). */
class LinkedBus implements TaskEventBus {
  up = true;
  async publish(): Promise<void> {}
  subscribe(_handler: (event: TaskEvent) => void): () => void {
    return () => undefined;
  }
  health() {
    return { connected: this.up };
  }
}

describe('the bus says its status (TaskEventBus.health)', () => {
  it("health reports what the bus's health() says, and down while it is disconnected", async () => {
    const bus = new LinkedBus();
    const app = await boot({ bus });
    expect(await health(app)).toMatchObject({ healthy: true, details: { bus: 'connected' } });
    bus.up = false;
    expect(await health(app)).toMatchObject({ healthy: false, details: { bus: 'disconnected' } });
  });

  it('a bus without health() relays in this process only: in-process, whatever else it has', async () => {
    const bus = Object.assign(new LinkedBus(), { health: undefined, connected: true });
    const app = await boot({ bus });
    expect(await health(app)).toMatchObject({ healthy: true, details: { bus: 'in-process' } });
  });
});

/** A memory store two apps of this process share, declared shared across processes as a database would be. */
class DeclaredSharedStore extends MemoryTaskStore {
  readonly sharedAcrossProcesses = true;
}

describe('the shared-store warning looks by what the store declares, not by its class', () => {
  const LEASE = 1_000;
  const longTask = async (app: INestApplication) =>
    (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId as string;

  it('two instances on a store declared shared (SharedTaskStore): each is warned of the other', async () => {
    const store = new DeclaredSharedStore();
    const [a, b] = [await boot({ store, lease: LEASE }), await boot({ store, lease: LEASE })];
    await longTask(a);
    await longTask(b);
    await until('both warned', () => busWarnings().length >= 2, 20_000);
    expect(busWarnings()[0]).toMatch(/^server "caps" \(instance [\w-]+\): instance [\w-]+ runs tasks in the same/);
  }, 60_000);

  it('two instances on a store not declared shared (a MemoryTaskStore in one process): no warning', async () => {
    const store = new MemoryTaskStore();
    const [a, b] = [await boot({ store, lease: LEASE }), await boot({ store, lease: LEASE })];
    await longTask(a);
    await longTask(b);
    await new Promise((resolve) => setTimeout(resolve, 3 * 2 * LEASE + 500));
    expect(busWarnings()).toEqual([]);
  }, 60_000);
});

describe("bus { type: 'postgres' } without a connection: the store's own database", () => {
  let pg: TestPostgres;
  let db: DataSource;
  beforeAll(async () => {
    pg = await startPostgres();
    db = new DataSource({ type: 'postgres', url: pg.url, entities: mcpTasksEntities, migrations: mcpTasksMigrations });
    await db.initialize();
    await db.runMigrations();
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await pg?.stop();
  });

  it('a TypeOrmTaskStore passed as it is, on PostgreSQL, gives it: the bus connects there', async () => {
    const app = await boot({ store: new TypeOrmTaskStore(db), bus: { type: 'postgres' } });
    await until('the bus connected', async () => (await health(app)).details.bus === 'connected', 15_000);
    expect(await health(app)).toMatchObject({ healthy: true, details: { store: 'up', bus: 'connected' } });
  }, 30_000);

  it('a store on SQLite has no PostgreSQL to give: startup fails saying so', async () => {
    const sqlite = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: mcpTasksEntities });
    await sqlite.initialize();
    try {
      await expect(boot({ store: new TypeOrmTaskStore(sqlite), bus: { type: 'postgres' } })).rejects.toThrow(
        'McpTasksModule: bus { type: "postgres" }: its connection settings failed: ' +
          "the store's database is better-sqlite3, not PostgreSQL",
      );
    } finally {
      await sqlite.destroy();
    }
  });

  it('a store that is not shared (MemoryTaskStore): startup fails naming bus, capability and store', async () => {
    await expect(boot({ bus: { type: 'postgres' } })).rejects.toThrow(
      'McpTasksModule: bus { type: "postgres" } without a connection needs a store that gives its PostgreSQL ' +
        'connection (SharedTaskStore.postgresConnection, as store { type: "typeorm" } on PostgreSQL does); ' +
        'MemoryTaskStore has none',
    );
  });
});
