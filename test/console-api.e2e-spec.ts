import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Inject,
  Injectable,
  Module,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { IncomingMessage } from 'node:http';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { LoopbackGuard, McpTasksConsoleModule, type McpTasksConsoleOptions } from '@mcp-tasks/nestjs/console';
import { BareTaskStore } from './fixtures/bare-store.js';
import { createConsoleApp } from './fixtures/console-app.js';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { consoleApi } from './support/console-browser.js';
import { call, cancelTask, getTask, TASKS } from './support/mcp-request.js';

const ACT = { 'x-mcp-console': '1' };
const server = (name: string) => ({ server: { name, version: '1' } });

/** Builds and starts an app of these modules; resolves with it, or rejects with why it would not start. */
async function start(imports: unknown[]): Promise<INestApplication> {
  const ref = await Test.createTestingModule({ imports: [...(imports as never[]), FixtureToolsModule] }).compile();
  const app = ref.createNestApplication({ logger: false });
  try {
    await app.listen(0, '127.0.0.1');
    return app;
  } catch (err) {
    await app.close().catch(() => undefined);
    throw err;
  }
}

describe('console: startup refuses what would be open or ambiguous', () => {
  const mcp = McpTasksModule.forRoot(server('only'));
  const refused = (options: McpTasksConsoleOptions, imports: unknown[] = [mcp]) =>
    expect(start([...imports, McpTasksConsoleModule.forRoot(options)])).rejects.toThrow();

  it('without an access rule, saying so', async () => {
    await expect(start([mcp, McpTasksConsoleModule.forRoot({})])).rejects.toThrow(
      /McpTasksConsoleModule: an access rule is required: pass `guard`.*or `scope`/,
    );
    await expect(start([mcp, McpTasksConsoleModule.forRoot({ showResults: true })])).rejects.toThrow(
      /access rule is required/,
    );
  });

  it('bad options, naming the option', async () => {
    const cases: [McpTasksConsoleOptions, RegExp][] = [
      [{ guard: LoopbackGuard, path: 'console' }, /path must start with "\/"/],
      [{ guard: LoopbackGuard, path: '/a b' }, /path must start with/],
      [{ guard: LoopbackGuard, pollInterval: 10 }, /pollInterval must be an integer number of ms from 100 to 2/],
      [{ scope: 'mcp admin' }, /scope must be an OAuth scope/],
      [{ scope: [] }, /access rule is required/],
      [{ guard: {} as never }, /guard must be a CanActivate class or instance/],
      [{ guard: LoopbackGuard, showResults: 'yes' as never }, /showResults must be a boolean/],
      [{ guard: LoopbackGuard, server: '' }, /server must be a non-empty string/],
    ];
    for (const [options, message] of cases)
      await expect(start([mcp, McpTasksConsoleModule.forRoot(options)])).rejects.toThrow(message);
  });

  it('scope without the McpTasksModule auth', async () => {
    await expect(start([mcp, McpTasksConsoleModule.forRoot({ scope: 'mcp:admin' })])).rejects.toThrow(
      /`scope` checks bearer tokens with the McpTasksModule `auth`, and server "only" has none/,
    );
  });

  it('no McpTasksModule, an unknown server, or several servers without a name', async () => {
    await expect(start([McpTasksConsoleModule.forRoot({ guard: LoopbackGuard })])).rejects.toThrow(
      /no McpTasksModule is registered in this app/,
    );
    await expect(start([mcp, McpTasksConsoleModule.forRoot({ guard: LoopbackGuard, server: 'nope' })])).rejects.toThrow(
      /no McpTasksModule has server.name "nope" \(registered: "only"\)/,
    );
    const two = [McpTasksModule.forRoot(server('a')), McpTasksModule.forRoot({ ...server('b'), path: '/mcp-b' })];
    await expect(start([...two, McpTasksConsoleModule.forRoot({ guard: LoopbackGuard })])).rejects.toThrow(
      /several McpTasksModule registrations \("a", "b"\): name the one to show with `server`/,
    );
    await refused({ guard: LoopbackGuard, server: 'c' }, two);
  });
});

describe('console: which server, async options, a guard with dependencies', () => {
  const apps: INestApplication[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('shows the named registration: its store, its tasks, its caps', async () => {
    const app = await start([
      McpTasksModule.forRoot({ ...server('a'), maxPerPrincipal: 7 }),
      McpTasksModule.forRoot({ ...server('b'), path: '/mcp-b', maxPerPrincipal: 9 }),
      McpTasksConsoleModule.forRoot({ guard: LoopbackGuard, server: 'b' }),
    ]);
    apps.push(app);
    const url = await app.getUrl();
    const onA = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    const onB = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS, path: '/mcp-b' })).body.result.taskId;
    const overview = (await consoleApi(url, 'overview')).body;
    expect(overview.server).toEqual({ name: 'b', version: '1' });
    expect(overview.limits).toEqual({ maxPerPrincipal: 9, maxTasks: null });
    expect((await consoleApi(url, 'tasks')).body.tasks.map((t: { id: string }) => t.id)).toEqual([onB]);
    expect((await consoleApi(url, `tasks/${onA}`)).status).toBe(404);
    expect((await consoleApi(url, `tasks/${onB}/cancel`, ACT, 'POST')).body).toEqual({ id: onB, status: 'cancelled' });
    expect((await getTask(app, onB, { path: '/mcp-b' })).body.result.status).toBe('cancelled');
    await cancelTask(app, onA);
  });

  it('forRootAsync: options from a factory, a guard class built with dependencies from `imports`', async () => {
    const ALLOWED = Symbol('allowed operators');
    @Injectable()
    class ListedOperatorGuard implements CanActivate {
      constructor(@Inject(ALLOWED) private readonly allowed: string[]) {}
      canActivate(ec: ExecutionContext): boolean {
        const req = ec.switchToHttp().getRequest<IncomingMessage & { user?: unknown }>();
        const who = String(req.headers['x-operator'] ?? '');
        req.user = { username: who };
        return this.allowed.includes(who);
      }
    }
    @Module({ providers: [{ provide: ALLOWED, useValue: ['ana'] }], exports: [ALLOWED] })
    class OperatorsModule {}
    const app = await start([
      McpTasksModule.forRoot(server('only')),
      McpTasksConsoleModule.forRootAsync({
        imports: [OperatorsModule],
        inject: [ALLOWED],
        useFactory: (allowed: string[]) => ({
          path: `/ops/${allowed.length}`,
          guard: ListedOperatorGuard,
          pollInterval: 700,
        }),
      }),
    ]);
    apps.push(app);
    const url = await app.getUrl();
    const get = (who: string) =>
      fetch(`${url}/ops/1/api/overview`, { headers: { 'x-operator': who } }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, any>,
      }));
    expect((await get('bo')).status).toBe(403);
    const ok = await get('ana');
    expect([ok.status, ok.body.pollInterval, ok.body.activityInterval]).toEqual([200, 700, 10_000]);
    expect((await fetch(`${url}/ops/1/`)).headers.get('content-type')).toBe('text/html; charset=utf-8');
  });
});

describe('console: routes and bad input', () => {
  let app: INestApplication;
  let url: string;
  let running: string;
  beforeAll(async () => {
    ({ app, url } = await createConsoleApp({}, { guard: LoopbackGuard }));
    running = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
  });
  afterAll(async () => app?.close());

  it('serves the page from <path>/ with a strict CSP, its files, and nothing else', async () => {
    const bare = await fetch(`${url}/mcp-console?x=1`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/mcp-console/?x=1']);
    const page = await fetch(`${url}/mcp-console/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
    const html = await page.text();
    expect(html).toContain('<script type="module" src="assets/console.js"></script>');
    // No data in the page itself, and nothing from another origin.
    expect(html).not.toContain(running);
    expect(html).not.toMatch(/https?:\/\//);
    for (const [file, type] of [
      ['console.js', 'text/javascript; charset=utf-8'],
      ['chart.js', 'text/javascript; charset=utf-8'],
      ['console.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await fetch(`${url}/mcp-console/assets/${file}`);
      expect([file, res.status, res.headers.get('content-type')]).toEqual([file, 200, type]);
      expect(await res.text()).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
    expect((await consoleApi(url, 'overview')).headers.get('cache-control')).toBe('no-store');
    for (const file of ['index.html', 'nope.js', '..%2Fconsole.service.ts'])
      expect((await fetch(`${url}/mcp-console/assets/${file}`)).status).toBe(404);
  });

  it('bad list queries are 400s naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['status=bogus', /status "bogus" is not one of working, input_required/],
      ['status=working,', /status "" is not one of/],
      ['status=working&status=failed', /status must be given once/],
      ['limit=0', /limit must be an integer from 1 to 200/],
      ['limit=201', /limit must be an integer from 1 to 200/],
      ['limit=2.5', /limit must be an integer/],
      ['maxAge=-1', /maxAge must be an integer from 0/],
      ['cursor=not-a-cursor', /cursor is not one this console handed out/],
      [`cursor=${Buffer.from('[1,2]').toString('base64url')}`, /cursor is not one/],
      [`tool=${'x'.repeat(1001)}`, /tool is longer than 1000 characters/],
    ];
    for (const [query, message] of cases) {
      const res = await consoleApi(url, `tasks?${query}`);
      expect([query, res.status, res.body.message]).toEqual([query, 400, expect.stringMatching(message)]);
    }
  });

  it('pages through the list with the cursor it hands out', async () => {
    const more = [];
    for (let i = 0; i < 4; i++) more.push((await call(app, 'wait', { ms: 1 }, { caps: TASKS })).body.result.taskId);
    const first = (await consoleApi(url, 'tasks?limit=3')).body;
    expect(first.total).toBe(5);
    const second = (await consoleApi(url, `tasks?limit=3&cursor=${first.next}`)).body;
    expect(second.next).toBeNull();
    const listed = [...first.tasks, ...second.tasks].map((t: { id: string }) => t.id);
    expect(new Set(listed)).toEqual(new Set([running, ...more]));
    expect(listed).toHaveLength(5);
    const activity = (await consoleApi(url, 'activity')).body;
    expect(activity.timeline.created).toHaveLength(60);
    expect(activity.timeline.created.reduce((a: number, b: number) => a + b, 0)).toBe(5);
    expect(activity.durations).toEqual([{ tool: 'wait', count: 4, p50: expect.any(Number), p95: expect.any(Number) }]);
    expect((await consoleApi(url, 'tasks?status=working')).body.tasks.map((t: { id: string }) => t.id)).toEqual([
      running,
    ]);
  });

  it('unknown tasks are 404; a cancel needs the console header; an ended task is 409', async () => {
    for (const id of ['no-such-task', 'x'.repeat(300), '%00']) {
      const res = await consoleApi(url, `tasks/${id}`);
      expect([res.status, res.body.message]).toEqual([404, 'Task not found']);
      expect((await consoleApi(url, `tasks/${id}/cancel`, ACT, 'POST')).status).toBe(404);
    }
    const forged = await consoleApi(url, `tasks/${running}/cancel`, {}, 'POST');
    expect([forged.status, forged.body.message]).toEqual([403, 'Console actions need the header x-mcp-console: 1']);
    expect((await getTask(app, running)).body.result.status).toBe('working');
    const done = (await call(app, 'wait', { ms: 1 }, { caps: TASKS })).body.result.taskId;
    for (let i = 0; i < 200 && (await getTask(app, done)).body.result.status !== 'completed'; i++)
      await new Promise((r) => setTimeout(r, 20));
    const late = await consoleApi(url, `tasks/${done}/cancel`, ACT, 'POST');
    expect([late.status, late.body.message]).toEqual([409, 'The task already ended: completed']);
    expect((await getTask(app, done)).body.result.status).toBe('completed');
  });
});

describe('console on a custom store without the optional queries', () => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => {
    ({ app, url } = await createConsoleApp({ store: new BareTaskStore() }, { guard: LoopbackGuard }));
  });
  afterAll(async () => app?.close());

  it('overview, activity and list answer 501 saying what is missing; a task still opens and cancels', async () => {
    const id = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    for (const route of ['overview', 'activity', 'tasks']) {
      const res = await consoleApi(url, route);
      expect(res.status).toBe(501);
      expect(res.body.message).toMatch(
        new RegExp(
          '^This task store \\(BareTaskStore\\) does not implement listTasks, taskCounts, taskActivity, ' +
            'which the console needs',
        ),
      );
    }
    expect((await consoleApi(url, `tasks/${id}`)).body.task).toMatchObject({ id, status: 'working' });
    expect((await consoleApi(url, `tasks/${id}/cancel`, ACT, 'POST')).body).toEqual({ id, status: 'cancelled' });
  });
});
