import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { BrowserContext } from 'playwright-core';
import { LoopbackGuard } from '@mcp-tasks/nestjs/console';
import { hsAuth } from './fixtures/auth-app.js';
import { BareTaskStore } from './fixtures/bare-store.js';
import { consoleLogs, createConsoleApp } from './fixtures/console-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { startBrowser, type TestBrowser } from './support/chromium.js';
import { consoleApi, openConsole, taskRow, textOf } from './support/console-browser.js';
import { call, TASKS, waitForTask } from './support/mcp-request.js';
import { hs256 } from './support/tokens.js';
import { until } from './support/until.js';

let browser: TestBrowser;
let context: BrowserContext;
beforeAll(async () => {
  browser = await startBrowser(); // installs Debian's chromium first when it is missing
}, 600_000);
afterAll(async () => browser?.close());

describe('operator console with bearer tokens (scope mcp:admin) and showResults', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    context = await browser.newContext();
    ({ app, url } = await createConsoleApp(
      { auth: hsAuth },
      { scope: 'mcp:admin', showResults: true, pollInterval: 250 },
    ));
  }, 300_000);

  // The browser's connections first: the app's server waits for every open one.
  afterAll(async () => {
    await context?.close();
    await app?.close();
  });

  const auth = (claims: Record<string, unknown>) => ({ authorization: `Bearer ${hs256(claims)}` });

  it('no token or a bad one → 401, a token without the scope → 403, each with its challenge and no data', async () => {
    const id = (
      await call(
        app,
        'wait',
        { ms: 60_000 },
        { caps: TASKS, headers: { authorization: auth({ sub: 'u1' }).authorization } },
      )
    ).body.result.taskId;
    const cases = [
      [{}, 401, /^Bearer resource_metadata="/],
      [{ authorization: 'Bearer not-a-jwt' }, 401, /error="invalid_token"/],
      [auth({ sub: 'ops', scope: 'mcp:admin', aud: 'https://elsewhere.example' }), 401, /error="invalid_token"/],
      [auth({ sub: 'ops', scope: 'files:read' }), 403, /error="insufficient_scope", scope="mcp:admin"/],
    ] as const;
    for (const [headers, status, challenge] of cases) {
      for (const route of ['overview', 'activity', 'tasks', `tasks/${id}`]) {
        const res = await consoleApi(url, route, headers);
        expect([route, res.status]).toEqual([route, status]);
        expect(res.headers.get('www-authenticate')).toMatch(challenge);
        expect(res.text).not.toContain(id);
      }
    }
    const ok = await consoleApi(url, 'tasks', auth({ sub: 'ops', scope: 'files:read mcp:admin' }));
    expect(ok.status).toBe(200);
    expect(ok.body.tasks.map((t: { id: string }) => t.id)).toEqual([id]);
  });

  it('the page asks for a token; with the admin scope it shows tasks, results, cancels as the subject', async () => {
    const id = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS, headers: auth({ sub: 'u2' }) })).body.result
      .taskId;
    const done = (await call(app, 'wait', { ms: 5 }, { caps: TASKS, headers: auth({ sub: 'u2' }) })).body.result.taskId;
    await waitForTask(app, done, undefined, 10_000, { headers: auth({ sub: 'u2' }) });
    const page = await openConsole(context, url);
    try {
      await textOf(page, '#banner', (t) => t.includes('(401)'));
      await page.fill('#token', hs256({ sub: 'viewer', scope: 'files:read' }));
      await page.click('#token-form button[type=submit]');
      await textOf(page, '#banner', (t) => t.includes('(403)'));
      expect(await page.locator('#task-list tr[data-task-id]').count()).toBe(0);
      await page.fill('#token', hs256({ sub: 'admin-7', scope: 'mcp:admin' }));
      await page.click('#token-form button[type=submit]');
      await (await taskRow(page, done)).click();
      expect(await textOf(page, '#task-result', (t) => t.includes('waited 5'))).toContain('"text": "waited 5"');
      await (await taskRow(page, id)).click();
      await page.click('#cancel-task');
      await page.click('#confirm-cancel');
      await textOf(page, '#detail h2 .status', (t) => t === 'cancelled');
      expect(await page.evaluate("sessionStorage.getItem('mcp-console-token')")).toMatch(/^ey/);
    } finally {
      await page.close();
    }
    expect(consoleLogs.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^McpTasksConsole: admin-7 cancelled task ${id} \\(wait, owner u2`)),
    );
    await until('the tool saw its signal fire', () => observed.aborted.has(id), 10_000);
  }, 120_000);
});

describe('operator console on a custom store without the optional queries', () => {
  let app: INestApplication;
  let url: string;
  beforeAll(async () => {
    context = await browser.newContext();
    ({ app, url } = await createConsoleApp(
      { store: new BareTaskStore() },
      { guard: LoopbackGuard, pollInterval: 250 },
    ));
  });
  // The browser's connections first: the app's server waits for every open one.
  afterAll(async () => {
    await context?.close();
    await app?.close();
  });

  it('the page says what the store lacks, and still opens and cancels a task by id', async () => {
    const id = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    const page = await openConsole(context, url);
    try {
      expect(await textOf(page, '#banner', (t) => t.includes('BareTaskStore'))).toMatch(
        new RegExp(
          'This task store \\(BareTaskStore\\) does not implement listTasks, taskCounts, taskActivity, ' +
            'which the console needs',
        ),
      );
      await page.fill('#open-id', id);
      await page.click('#open-form button[type=submit]');
      await textOf(page, '#task-id', (t) => t === id);
      await page.click('#cancel-task');
      await page.click('#confirm-cancel');
      await textOf(page, '#detail h2 .status', (t) => t === 'cancelled');
      expect(await textOf(page, '#action-message', (t) => t !== '')).toBe(
        'Cancel requested: the task is now cancelled.',
      );
    } finally {
      await page.close();
    }
    await until('the tool saw its signal fire', () => observed.aborted.has(id), 10_000);
  }, 120_000);
});
