import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, type INestApplication, type LoggerService } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule } from '@nestjs/terminus';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import request from 'supertest';
import {
  McpTasksHealthIndicator,
  McpTasksModule,
  MemoryTaskStore,
  type McpTasksModuleOptions,
  type TaskRecord,
} from '@mcp-tasks/nestjs';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { call, cancelTask, TASKS } from './support/mcp-request.js';
import { createPlatformApp, PLATFORMS, type Platform } from './support/platforms.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';

@Controller('health')
class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpTasksHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check() {
    return this.health.check([() => this.mcp.isHealthy('mcp-tasks')]);
  }
}

/** A memory store whose reads can be made to fail, as a database that went away. */
class FlakyStore extends MemoryTaskStore {
  down = false;
  override get(id: string, now: number): Promise<TaskRecord | undefined> {
    return this.down ? Promise.reject(new Error('connection refused')) : super.get(id, now);
  }
}

const logged: string[] = [];
const logger: LoggerService = {
  log: () => undefined,
  error: () => undefined,
  warn: (message: unknown) => void logged.push(String(message)),
};

async function healthApp(
  options: Partial<McpTasksModuleOptions>,
  platform: Platform = 'express',
  imports: unknown[] = [],
): Promise<INestApplication> {
  const ref = await Test.createTestingModule({
    imports: [
      ...(imports as never[]),
      TerminusModule,
      McpTasksModule.forRoot({ server: { name: 'healthy', version: '1' }, pollInterval: 50, ...options }),
      FixtureToolsModule,
    ],
    controllers: [HealthController],
  }).compile();
  const app = createPlatformApp(ref, platform);
  app.useLogger(logger);
  await app.listen(0, '127.0.0.1');
  return app;
}

describe.each(PLATFORMS)('health indicator for @nestjs/terminus (%s)', (platform) => {
  let app: INestApplication;
  const store = new FlakyStore();
  beforeAll(async () => {
    app = await healthApp({ store, maxTasks: 1, shutdownGrace: 50 }, platform);
  });
  afterAll(() => app.close());

  it('up: the store answers, the in-process bus, the sweeper runs, live tasks under the cap', async () => {
    const res = await request(app.getHttpServer()).get('/health');
    expect(res.status).toBe(200);
    expect(res.body.info['mcp-tasks']).toEqual({
      status: 'up',
      server: 'healthy',
      store: 'up',
      bus: 'in-process',
      sweeper: 'running',
      liveTasks: 0,
      maxTasks: 1,
    });
  });

  it('down at the cap (no new task can start), and up again once the task ends', async () => {
    const created = await call(app, 'wait', { ms: 60_000 }, { caps: TASKS });
    const full = await request(app.getHttpServer()).get('/health');
    expect(full.status).toBe(503);
    expect(full.body.error['mcp-tasks']).toMatchObject({ status: 'down', liveTasks: 1, maxTasks: 1 });
    await cancelTask(app, created.body.result.taskId);
    expect((await request(app.getHttpServer()).get('/health')).status).toBe(200);
  });

  it('down with the reason when the store does not answer', async () => {
    store.down = true;
    try {
      const res = await request(app.getHttpServer()).get('/health');
      expect(res.status).toBe(503);
      expect(res.body.error['mcp-tasks']).toMatchObject({ status: 'down', store: 'down: connection refused' });
    } finally {
      store.down = false;
    }
  });
});

describe('on a shared PostgreSQL store', () => {
  let pg: TestPostgres;
  const typeorm = () =>
    TypeOrmModule.forRoot({
      type: 'postgres',
      url: pg.url,
      entities: mcpTasksEntities,
      migrations: mcpTasksMigrations,
      migrationsRun: true,
    });
  beforeAll(async () => {
    pg = await startPostgres();
  }, 60_000);
  afterAll(() => pg.stop());

  it('reports the PostgreSQL bus connected', async () => {
    const app = await healthApp({ store: { type: 'typeorm' }, bus: { type: 'postgres' } }, 'express', [typeorm()]);
    try {
      const res = await request(app.getHttpServer()).get('/health');
      expect(res.status).toBe(200);
      expect(res.body.info['mcp-tasks']).toMatchObject({ store: 'up', bus: 'connected', sweeper: 'running' });
    } finally {
      await app.close();
    }
  });

  it('with the in-process bus, one instance: no warning at startup (only another instance seen warns)', async () => {
    logged.length = 0;
    const app = await healthApp({ store: { type: 'typeorm' } }, 'express', [typeorm()]);
    await app.close();
    expect(logged.filter((m) => m.includes('event bus is in-process'))).toEqual([]);
  });
});
