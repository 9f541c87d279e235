import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { BrowserContext } from 'playwright-core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { LoopbackGuard, McpTasksConsoleModule } from '@mcp-tasks/nestjs/console';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';
import { consoleLogs } from './fixtures/console-app.js';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { startBrowser, type TestBrowser } from './support/chromium.js';
import { consoleApi, openConsole, taskRow, textOf } from './support/console-browser.js';
import { call, getTask, TASKS } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

/** One instance: its own DataSource on the shared database, the PostgreSQL bus, the console on loopback. */
async function instance(url: string): Promise<{ app: INestApplication; url: string }> {
  const ref = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot({
        type: 'postgres',
        url,
        entities: mcpTasksEntities,
        migrations: mcpTasksMigrations,
        migrationsRun: true,
      }),
      // A long poll interval: a run only learns of a cancel this fast through the bus.
      McpTasksModule.forRoot({
        server: { name: 'cluster', version: '1' },
        store: { type: 'typeorm' },
        bus: { type: 'postgres' },
        pollInterval: 30_000,
      }),
      McpTasksConsoleModule.forRoot({ guard: LoopbackGuard, pollInterval: 300 }),
      FixtureToolsModule,
    ],
  }).compile();
  const app = ref.createNestApplication({ logger: consoleLogs });
  await app.listen(0, '127.0.0.1');
  return { app, url: await app.getUrl() };
}

describe('operator console over two instances (PostgreSQL store and bus)', () => {
  let pg: TestPostgres;
  let browser: TestBrowser;
  let context: BrowserContext;
  let a: { app: INestApplication; url: string };
  let b: { app: INestApplication; url: string };

  beforeAll(async () => {
    browser = await startBrowser();
    context = await browser.newContext();
    pg = await startPostgres();
    // One after the other: the first runs the migrations.
    a = await instance(pg.url);
    b = await instance(pg.url);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await a?.app.close();
    await b?.app.close();
    await pg?.stop();
  });

  it("B's page shows A's running task and lease; cancelling it there fires the tool's signal on A", async () => {
    const id = (await call(a.app, 'wait', { ms: 60_000, tag: 'console-cluster' }, { caps: TASKS })).body.result.taskId;
    const onB = (await call(b.app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    const [instanceA, instanceB] = [
      (await consoleApi(a.url, 'overview')).body.instance,
      (await consoleApi(b.url, 'overview')).body.instance,
    ];
    expect(instanceA).not.toBe(instanceB);

    const page = await openConsole(context, b.url);
    try {
      await taskRow(page, id);
      await taskRow(page, onB);
      await textOf(page, '[data-count="working"] .n', (t) => t === '2');
      const leases = await textOf(page, '#leases', (t) => t.includes(instanceA) && t.includes(instanceB));
      expect(leases).toContain(`${instanceB} (this one)`);
      expect(leases).not.toContain(`${instanceA} (this one)`);

      await (await taskRow(page, id)).click();
      const detail = await textOf(page, '#detail-body', (t) => t.includes(instanceA));
      expect(detail).toMatch(new RegExp(`instance${instanceA}, until in`));
      expect(observed.aborted.has(id)).toBe(false);
      await page.click('#cancel-task');
      await page.click('#confirm-cancel');
      await textOf(page, '#detail h2 .status', (t) => t === 'cancelled');
    } finally {
      await page.close();
    }
    // Well under A's 30 s store poll: the cancel reached A's run through the bus.
    await until("A's tool saw its signal fire", () => observed.aborted.has(id), 10_000);
    expect((await getTask(a.app, id)).body.result.status).toBe('cancelled');
    expect((await getTask(b.app, onB)).body.result.status).toBe('working');
    expect(consoleLogs.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^McpTasksConsole: local cancelled task ${id} \\(wait, owner host`)),
    );
    // Both instances read the same store.
    const counts = async (url: string) => (await consoleApi(url, 'overview')).body.stats.byStatus;
    expect(await counts(a.url)).toEqual(await counts(b.url));
    expect(await counts(a.url)).toMatchObject({ working: 1, cancelled: 1 });
  }, 180_000);
});
