import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { BrowserContext } from 'playwright-core';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { LoopbackGuard, McpTasksConsoleModule } from '@mcp-tasks/nestjs/console';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { startBrowser, type TestBrowser } from './support/chromium.js';
import { openConsole, taskRow, textOf } from './support/console-browser.js';
import { call, getTask, TASKS } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';
import { hs256, ISSUER, SECRET } from './support/tokens.js';

/**
 * DNS rebinding against the console: a page of another origin whose name now resolves to 127.0.0.1 reaches the
 * console from this machine (so LoopbackGuard lets it through) with its own name as `Host` and `Origin`. Every
 * console route answers it exactly as the MCP endpoint does — 403 — before any access rule or data read.
 */

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A raw HTTP request to 127.0.0.1:`port` (fetch would not let a test choose the `Host` header). */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject).end();
  });
}

const as = (tenant: string) => ({ caps: TASKS, headers: { 'x-tenant': tenant } });
const ACT = { 'x-mcp-console': '1' };
const portOf = (app: INestApplication) => (app.getHttpServer().address() as { port: number }).port;

/** Every route the console serves, as [name, method, path]; the cancel is the last. */
const routes = (task: string): Array<[string, string, string]> => [
  ['page', 'GET', '/mcp-console/'],
  ['page without its slash', 'GET', '/mcp-console'],
  ['asset', 'GET', '/mcp-console/assets/console.js'],
  ['overview', 'GET', '/mcp-console/api/overview'],
  ['activity', 'GET', '/mcp-console/api/activity'],
  ['tasks list', 'GET', '/mcp-console/api/tasks'],
  ['task detail', 'GET', `/mcp-console/api/tasks/${task}`],
  ['cancel', 'POST', `/mcp-console/api/tasks/${task}/cancel`],
];

/** Whether the MCP endpoint refuses these headers (its Host/Origin check comes before anything else it reads). */
const endpointRefuses = async (port: number, headers: Record<string, string>) =>
  (await send(port, 'GET', '/mcp', headers)).status === 403;

describe.each(PLATFORMS)('console under DNS rebinding (%s)', (platform) => {
  let app: INestApplication;
  let port: number;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    app = await createFixtureApp(
      { subject: (req) => String(req.headers['x-tenant'] ?? 'alice'), shutdownGrace: 200 },
      [McpTasksConsoleModule.forRoot({ guard: LoopbackGuard })],
      platform,
    );
    port = portOf(app);
    for (const tenant of ['alice', 'bob'])
      ids[tenant] = (await call(app, 'wait', { ms: 60_000, tag: tenant }, as(tenant))).body.result.taskId;
  });
  afterAll(async () => app?.close());

  const attacks = (): Record<string, Record<string, string>> => ({
    'rebound name (Host and Origin)': { host: `attacker.example:${port}`, origin: `http://attacker.example:${port}` },
    'foreign Host': { host: `attacker.example:${port}` },
    'foreign Origin': { host: `127.0.0.1:${port}`, origin: 'http://attacker.example' },
  });

  it('every route answers a foreign Host or Origin 403 and nothing else, as the MCP endpoint does', async () => {
    for (const [attack, headers] of Object.entries(attacks())) {
      expect([attack, await endpointRefuses(port, headers)]).toEqual([attack, true]);
      for (const [route, method, path] of routes(ids.alice)) {
        const res = await send(port, method, path, { ...headers, ...ACT });
        expect([route, attack, res.status]).toEqual([route, attack, 403]);
        expect(JSON.parse(res.text)).toMatchObject({ statusCode: 403, message: expect.stringMatching(/^Forbidden: /) });
        for (const secret of [ids.alice, ids.bob, 'alice', 'bob', '<html', 'import ', '"tasks"', '"stats"'])
          expect([route, attack, res.text.includes(secret)]).toEqual([route, attack, false]);
      }
    }
    // The cancels did nothing.
    for (const tenant of ['alice', 'bob'])
      expect((await getTask(app, ids[tenant], as(tenant))).body.result.status).toBe('working');
  });

  it('the console by its own name still answers: loopback names, and the Origin a browser sends', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const origin = `http://${host}`;
      for (const [route, method, path] of routes(ids.alice).slice(0, -1)) {
        for (const headers of [{ host }, { host, origin }] as Array<Record<string, string>>) {
          const res = await send(port, method, path, headers);
          const expected = route === 'page without its slash' ? 308 : 200;
          expect([route, headers, res.status]).toEqual([route, headers, expected]);
        }
      }
    }
    const list = await send(port, 'GET', '/mcp-console/api/tasks', { host: `localhost:${port}` });
    expect(
      JSON.parse(list.text)
        .tasks.map((t: { id: string }) => t.id)
        .sort(),
    ).toEqual([ids.alice, ids.bob].sort());
    const page = await send(port, 'GET', '/mcp-console/', { host: `127.0.0.1:${port}` });
    expect([page.headers['content-type'], page.text]).toEqual([
      'text/html; charset=utf-8',
      expect.stringContaining('<html'),
    ]);
    const host = `127.0.0.1:${port}`;
    const cancel = await send(port, 'POST', `/mcp-console/api/tasks/${ids.bob}/cancel`, {
      host,
      origin: `http://${host}`,
      ...ACT,
    });
    expect([cancel.status, JSON.parse(cancel.text)]).toEqual([200, { id: ids.bob, status: 'cancelled' }]);
    expect((await getTask(app, ids.bob, as('bob'))).body.result.status).toBe('cancelled');
  });
});

describe.each(PLATFORMS)('console: the registration’s allowedHosts, allowedOrigins and trustProxy (%s)', (platform) => {
  let app: INestApplication;
  let port: number;
  beforeAll(async () => {
    app = await createFixtureApp(
      { allowedHosts: ['ops.example'], allowedOrigins: ['https://portal.example'], trustProxy: true },
      [McpTasksConsoleModule.forRoot({ guard: LoopbackGuard })],
      platform,
    );
    port = portOf(app);
  });
  afterAll(async () => app?.close());

  it('every route gives the endpoint’s verdict for each Host, forwarded host and Origin', async () => {
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ host: 'ops.example' }, true],
      [{ host: `ops.example:${port}`, origin: 'https://portal.example' }, true],
      [{ host: 'ops.example', origin: 'http://ops.example' }, true],
      [{ host: `127.0.0.1:${port}`, 'x-forwarded-host': 'ops.example' }, true],
      // allowedHosts replaces the loopback names.
      [{ host: `127.0.0.1:${port}` }, false],
      [{ host: `localhost:${port}` }, false],
      [{ host: 'ops.example', origin: 'https://evil.example' }, false],
      [{ host: 'ops.example', 'x-forwarded-host': 'evil.example' }, false],
    ];
    const task = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS, headers: { host: 'ops.example' } })).body
      .result.taskId;
    for (const [headers, allowed] of cases) {
      expect([headers, await endpointRefuses(port, headers)]).toEqual([headers, !allowed]);
      for (const [route, method, path] of routes(task).slice(0, -1)) {
        const res = await send(port, method, path, headers);
        const expected = !allowed ? 403 : route === 'page without its slash' ? 308 : 200;
        expect([route, headers, res.status]).toEqual([route, headers, expected]);
      }
      if (allowed) continue;
      const cancel = await send(port, 'POST', `/mcp-console/api/tasks/${task}/cancel`, { ...headers, ...ACT });
      expect([headers, cancel.status]).toEqual([headers, 403]);
    }
    const cancel = await send(port, 'POST', `/mcp-console/api/tasks/${task}/cancel`, { host: 'ops.example', ...ACT });
    expect([cancel.status, JSON.parse(cancel.text)]).toEqual([200, { id: task, status: 'cancelled' }]);
  });
});

describe.each([
  ['express', {}],
  ['fastify', {}],
  ['fastify', { ignoreTrailingSlash: true }],
] as const)('console under a global prefix (%s %j)', (platform, fastifyOptions) => {
  let app: INestApplication;
  let port: number;
  beforeAll(async () => {
    const ref = await Test.createTestingModule({
      imports: [
        McpTasksModule.forRoot({ server: { name: 'prefixed', version: '1' } }),
        McpTasksConsoleModule.forRoot({ guard: LoopbackGuard }),
      ],
    }).compile();
    app =
      platform === 'fastify'
        ? ref.createNestApplication(new FastifyAdapter(fastifyOptions), { logger: false })
        : ref.createNestApplication({ logger: false });
    app.setGlobalPrefix('api');
    await app.listen(0, '127.0.0.1');
    port = portOf(app);
  });
  afterAll(async () => app?.close());

  it('checks every route where it is served, and serves the page at <path>/', async () => {
    for (const [route, method, path] of routes('some-task')) {
      const prefixed = `/api${path}`;
      const foreign = await send(port, method, prefixed, { host: 'attacker.example', ...ACT });
      expect([route, foreign.status]).toEqual([route, 403]);
      const own = await send(port, method, prefixed, { host: `localhost:${port}`, ...ACT });
      const expected = { 'page without its slash': 308, 'task detail': 404, cancel: 404 }[route] ?? 200;
      expect([route, own.status]).toEqual([route, expected]);
    }
    const bare = await send(port, 'GET', '/api/mcp-console', { host: `localhost:${port}` });
    expect(bare.headers.location).toBe('/api/mcp-console/');
  });
});

/** An app-wide guard on HTTP routes that wants a header of its own (MCP requests meet it in an `mcp` context). */
@Injectable()
class AppHeaderGuard implements CanActivate {
  canActivate(ec: ExecutionContext): boolean {
    if (ec.getType() !== 'http') return true;
    const req = ec.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    if (req.headers['x-app-pass'] !== '1') throw new UnauthorizedException('The app guard wants x-app-pass');
    return true;
  }
}

describe.each(PLATFORMS)(
  'console: the Host check comes before the access rule and app-wide guards (%s)',
  (platform) => {
    let app: INestApplication;
    let port: number;
    const resource = 'http://127.0.0.1/mcp';
    const admin = () => `Bearer ${hs256({ scope: 'mcp:admin', aud: resource })}`;
    beforeAll(async () => {
      app = await createFixtureApp(
        { auth: { resource, authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET } },
        [McpTasksConsoleModule.forRoot({ scope: 'mcp:admin' })],
        platform,
      );
      port = portOf(app);
    });
    afterAll(async () => app?.close());

    it('a foreign Host is 403 with a valid admin token or none (never 401), and cancels nothing', async () => {
      const user = { authorization: `Bearer ${hs256({ scope: '', aud: resource })}` };
      const task = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS, headers: user })).body.result.taskId;
      const host = `127.0.0.1:${port}`;
      for (const credentials of [{}, { authorization: admin() }] as Array<Record<string, string>>) {
        for (const [route, method, path] of routes(task)) {
          const res = await send(port, method, path, { host: 'attacker.example', ...credentials, ...ACT });
          expect([route, res.status, res.headers['www-authenticate']]).toEqual([route, 403, undefined]);
        }
      }
      expect((await getTask(app, task, { headers: user })).body.result.status).toBe('working');
      // By its own name: the access rule decides.
      const anonymous = await send(port, 'GET', '/mcp-console/api/overview', { host });
      expect([anonymous.status, anonymous.headers['www-authenticate']]).toEqual([
        401,
        expect.stringMatching(/^Bearer /),
      ]);
      expect((await send(port, 'GET', '/mcp-console/api/overview', { host, authorization: admin() })).status).toBe(200);
    });
  },
);

describe.each(PLATFORMS)('console: app-wide guards run after the Host check (%s)', (platform) => {
  let app: INestApplication;
  let port: number;
  beforeAll(async () => {
    app = await createFixtureApp(
      {},
      [
        McpTasksConsoleModule.forRoot({ guard: LoopbackGuard }),
        { module: class AppGuardModule {}, providers: [{ provide: APP_GUARD, useClass: AppHeaderGuard }] },
      ],
      platform,
    );
    port = portOf(app);
  });
  afterAll(async () => app?.close());

  it('a foreign Host meets 403 from the console, not the app guard’s 401', async () => {
    for (const [route, method, path] of routes('some-task')) {
      const foreign = await send(port, method, path, { host: 'attacker.example', ...ACT });
      expect([route, foreign.status]).toEqual([route, 403]);
    }
    // By its own name the app guard still runs on the data routes.
    for (const [route, method, path] of routes('some-task').filter(([, , p]) => p.includes('/api/'))) {
      const own = await send(port, method, path, { host: `127.0.0.1:${port}`, ...ACT });
      expect([route, own.status]).toEqual([route, 401]);
    }
  });
});

describe('the console page’s own requests pass the check (Chromium)', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await startBrowser(); // installs Debian's chromium first when it is missing
  }, 600_000);
  afterAll(async () => browser?.close());

  it.each(PLATFORMS)(
    '%s: the page loads its files and data, and cancels a task',
    async (platform) => {
      const app = await createFixtureApp(
        { shutdownGrace: 200 },
        [McpTasksConsoleModule.forRoot({ guard: LoopbackGuard, pollInterval: 250 })],
        platform,
      );
      let context: BrowserContext | undefined;
      try {
        const id = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
        context = await browser.newContext();
        const page = await openConsole(context, `http://127.0.0.1:${portOf(app)}`);
        await (await taskRow(page, id)).click();
        await page.click('#cancel-task');
        await page.click('#confirm-cancel');
        await textOf(page, '#detail h2 .status', (t) => t === 'cancelled');
        expect((await getTask(app, id)).body.result.status).toBe('cancelled');
      } finally {
        await context?.close();
        await app.close();
      }
    },
    120_000,
  );
});
