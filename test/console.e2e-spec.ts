import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Injectable,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { BrowserContext, Page } from 'playwright-core';
import { TaskStore, type TaskRecord, type TaskStatus } from '@mcp-tasks/nestjs';
import { consoleLogs, createConsoleApp } from './fixtures/console-app.js';
import { history } from './fixtures/console-history.js';
import { observed } from './fixtures/fixture-tools.js';
import { startBrowser, type TestBrowser } from './support/chromium.js';
import { consoleApi, openConsole, taskRow, textOf } from './support/console-browser.js';
import { call, getTask, TASKS, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

/** A session-style access rule: the `operator` cookie names who is signed in; `guest` may not use the console. */
@Injectable()
class OperatorCookieGuard implements CanActivate {
  canActivate(ec: ExecutionContext): boolean {
    const req = ec.switchToHttp().getRequest<IncomingMessage & { user?: unknown }>();
    const name = /(?:^|;\s*)operator=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
    if (!name) throw new UnauthorizedException('Sign in as an operator first');
    req.user = { sub: name };
    return name !== 'guest';
  }
}

const ASK_CAPS = { ...TASKS, elicitation: {} };
const as = (tenant: string) => ({ caps: TASKS, headers: { 'x-tenant': tenant } });
const OPERATOR = { cookie: 'operator=ops-1' };
/**
 * A screenshot into .tmp/ (checked to be a real PNG); with MCP_UPDATE_SCREENSHOT=1 also into docs/,
 * where docs/console.md shows it.
 */
async function shoot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  mkdirSync('.tmp', { recursive: true });
  await page.screenshot({ path: join('.tmp', name) });
  const png = readFileSync(join('.tmp', name));
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(png.length).toBeGreaterThan(20_000);
  if (process.env.MCP_UPDATE_SCREENSHOT === '1') copyFileSync(join('.tmp', name), join('docs', name));
}

let browser: TestBrowser;
beforeAll(async () => {
  browser = await startBrowser(); // installs Debian's chromium first when it is missing
}, 600_000);
afterAll(async () => browser?.close());

describe('operator console in a browser (memory store, an app guard)', () => {
  let app: INestApplication;
  let url: string;
  const ids: Record<string, string> = {};
  let seeded: TaskRecord[] = [];
  let context: BrowserContext;

  beforeAll(async () => {
    context = await browser.newContext();
    ({ app, url } = await createConsoleApp(
      { subject: (req) => String(req.headers['x-tenant'] ?? 'alice'), maxPerPrincipal: 5 },
      { guard: OperatorCookieGuard, pollInterval: 250 },
    ));
    seeded = history(Date.now());
    const store = app.get<TaskStore>(TaskStore, { strict: false });
    for (const task of seeded) await store.create(task, { maxPerOwner: Infinity, maxTotal: Infinity });
    for (const tenant of ['alice', 'alice', 'alice', 'bob']) {
      const id = (await call(app, 'wait', { ms: 60_000, tag: `run-${tenant}` }, as(tenant))).body.result.taskId;
      ids[`${tenant}${Object.keys(ids).length}`] = id;
    }
    ids.running = ids.alice0;
    ids.done = (await call(app, 'wait', { ms: 10 }, as('bob'))).body.result.taskId;
    ids.asking = (await call(app, 'ask', {}, { ...as('carol'), caps: ASK_CAPS })).body.result.taskId;
    await waitForTask(app, ids.done, undefined, 10_000, as('bob'));
    await waitForTask(app, ids.asking, (s) => s === 'input_required', 10_000, as('carol'));
  }, 300_000);

  // The browser's connections first: the app's server waits for every open one.
  afterAll(async () => {
    await context?.close();
    await app?.close();
  });

  it('a caller without the access rule gets 401/403 and no data, and cannot cancel', async () => {
    for (const [headers, status] of [
      [{}, 401],
      [{ cookie: 'operator=guest' }, 403],
    ] as const) {
      for (const route of ['overview', 'activity', 'tasks', `tasks/${ids.running}`]) {
        const res = await consoleApi(url, route, headers);
        expect([route, res.status]).toEqual([route, status]);
        expect(Object.keys(res.body)).toEqual(expect.arrayContaining(['statusCode', 'message']));
        expect(res.text).not.toMatch(/stats|tasks"|wait|alice|fixture/);
        expect(res.text).not.toContain(ids.running);
      }
      const cancel = await consoleApi(url, `tasks/${ids.running}/cancel`, { ...headers, 'x-mcp-console': '1' }, 'POST');
      expect(cancel.status).toBe(status);
    }
    expect((await getTask(app, ids.running, as('alice'))).body.result.status).toBe('working');

    const page = await openConsole(context, url);
    try {
      expect(await textOf(page, '#banner', (t) => t.includes('(401)'))).toMatch(/Sign in as an operator first/);
      expect(await page.locator('#token-form').isVisible()).toBe(true);
      expect(await page.locator('#task-list tr[data-task-id]').count()).toBe(0);
      expect(await page.content()).not.toContain(ids.running);
    } finally {
      await page.close();
    }
  }, 120_000);

  it('lists a running task created over MCP; the counts, tables and chart render', async () => {
    const page = await openConsole(context, url, OPERATOR.cookie);
    try {
      const row = await taskRow(page, ids.running);
      expect(await row.textContent()).toMatch(/wait.*working.*alice/);
      const { body: activity } = await consoleApi(url, 'activity', OPERATOR);
      const count = async (key: string) =>
        Number(await textOf(page, `[data-count="${key}"] .n`, (t) => t !== '' && t !== '…'));
      // 4 waits running; carol's ask waits for input; bob's short wait and the history ended.
      expect(await count('working')).toBe(4);
      expect(await count('input_required')).toBe(1);
      const ended = (s: TaskStatus) => seeded.filter((t) => t.status === s).length;
      expect(await count('completed')).toBe(ended('completed') + 1);
      expect(await count('failed')).toBe(ended('failed'));
      expect(await count('cancelled')).toBe(ended('cancelled'));
      expect(await count('live')).toBe(5);

      // The chart draws one bar per non-empty minute and series, and says what it shows.
      const { created, ended: ends } = activity.timeline as { created: number[]; ended: number[] };
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      expect(sum(created)).toBe(seeded.length + 6);
      const label = await page.locator('#chart svg').getAttribute('aria-label');
      expect(label).toBe(`Last hour: ${sum(created)} tasks created, ${sum(ends)} ended`);
      // + 1: the legend's swatch
      expect(await page.locator('#chart rect.created').count()).toBe(created.filter((n) => n > 0).length + 1);
      expect(await page.locator('#chart rect.ended').count()).toBe(ends.filter((n) => n > 0).length + 1);
      expect(await page.locator('#chart rect.created title').first().textContent()).toMatch(/\d+ created$/);

      expect(await textOf(page, '#tools tr[data-tool="wait"]', (t) => t.includes('wait'))).toMatch(/^wait4010/);
      expect(await page.locator('#owners').textContent()).toContain('alice');
      expect(await page.locator('#caps thead').textContent()).toBe('ownerliveof 5');
      expect(await page.locator('#caps tbody tr').first().textContent()).toBe('alice3');
      expect(await page.locator('#leases').textContent()).toContain('(this one)');

      // The pictures in docs/console.md: the overview, then carol's task with its question.
      await page.setViewportSize({ width: 1400, height: 1050 });
      await page.waitForTimeout(300); // one more poll, so the chart and list are settled
      await shoot(page, 'console.png');
      await (await taskRow(page, ids.asking)).click();
      await textOf(page, '#task-input', (t) => t.includes('First?'));
      await shoot(page, 'console-task.png');
    } finally {
      await page.close();
    }
  }, 120_000);

  it('updates live: a task created after the page opened appears without a reload', async () => {
    const page = await openConsole(context, url, OPERATOR.cookie);
    try {
      await taskRow(page, ids.running);
      let navigations = 0;
      page.on('framenavigated', () => navigations++);
      await page.evaluate('window.marker = 42');
      const id = (await call(app, 'wait', { ms: 60_000 }, as('dave'))).body.result.taskId;
      await taskRow(page, id);
      await textOf(page, '[data-count="working"] .n', (t) => t === '5');
      expect(await page.evaluate('window.marker')).toBe(42);
      expect(navigations).toBe(0);
      await call(app, 'wait', { ms: 1 }, as('dave')); // keeps dave's count honest for later tests
      await (await taskRow(page, id)).click();
      await page.click('#cancel-task');
      await page.click('#confirm-cancel');
      await textOf(page, '#detail h2 .status', (t) => t === 'cancelled');
    } finally {
      await page.close();
    }
  }, 120_000);

  it('the task page shows status, questions, times and instance; results stay hidden without showResults', async () => {
    const page = await openConsole(context, url, OPERATOR.cookie);
    try {
      await (await taskRow(page, ids.asking)).click();
      expect(await textOf(page, '#task-id', (t) => t === ids.asking)).toBe(ids.asking);
      expect(await page.locator('#task-input').textContent()).toBe('a elicitation/create: “First?”');
      const detail = (await page.locator('#detail-body').textContent()) ?? '';
      expect(detail).toMatch(/owner\s*carol on fixture/);
      expect(detail).toMatch(/History \(as far as the store keeps it\)createdworking.*ago/);
      expect(detail).toMatch(/instance.*\(this one\), until in/);
      expect(detail).toContain('Cancel task');

      await (await taskRow(page, ids.done)).click();
      await textOf(page, '#task-id', (t) => t === ids.done);
      expect(await page.locator('#task-result-hidden').textContent()).toMatch(/^Hidden/);
      expect(await page.content()).not.toContain('waited 10');
      expect(await page.locator('#cancel-task').count()).toBe(0);
      expect(await page.locator('#detail-body').textContent()).toMatch(/endedcompleted/);
      const api = await consoleApi(url, `tasks/${ids.done}`, OPERATOR);
      expect(api.body.task.outcome).toEqual({ shown: false, exists: true });
      expect(api.text).not.toContain('waited 10');
      const seededDone = seeded.find((t) => t.status === 'completed')!;
      expect((await consoleApi(url, `tasks/${seededDone.id}`, OPERATOR)).text).not.toContain('payroll');
      expect((await consoleApi(url, 'tasks?limit=200', OPERATOR)).text).not.toContain('payroll');
    } finally {
      await page.close();
    }
  }, 120_000);

  it('cancel from the page ends the task cancelled, fires the tool signal, and logs who did it', async () => {
    const page = await openConsole(context, url, OPERATOR.cookie);
    try {
      await (await taskRow(page, ids.running)).click();
      await page.click('#cancel-task');
      expect(await page.locator('#detail .actions').textContent()).toContain('Cancel this task?');
      const button = await page.$('#confirm-cancel');
      await page.waitForTimeout(600); // polls in between must not undo the question
      // … nor replace the button: a click whose press and release straddle a redraw would be lost.
      expect(await button!.evaluate((b) => b.isConnected)).toBe(true);
      await page.click('#confirm-cancel');
      await textOf(page, '#action-message', (t) => t.includes('cancelled'));
      await textOf(page, '#detail h2 .status', (t) => t === 'cancelled');
      await textOf(page, `#task-list tr[data-task-id="${ids.running}"] .status`, (t) => t === 'cancelled');
    } finally {
      await page.close();
    }
    expect((await getTask(app, ids.running, as('alice'))).body.result.status).toBe('cancelled');
    await until('the tool saw its signal fire', () => observed.aborted.has(ids.running), 10_000);
    expect(consoleLogs.lines).toContainEqual(
      expect.stringMatching(new RegExp(`^McpTasksConsole: ops-1 cancelled task ${ids.running} \\(wait, owner alice`)),
    );
    const again = await consoleApi(url, `tasks/${ids.running}/cancel`, { ...OPERATOR, 'x-mcp-console': '1' }, 'POST');
    expect([again.status, again.body.message]).toEqual([409, 'The task already ended: cancelled']);
  }, 120_000);

  it('filters by tool, status, owner and age, and pages', async () => {
    const page = await openConsole(context, url, OPERATOR.cookie);
    try {
      await taskRow(page, ids.asking);
      const total = seeded.length + 8;
      expect(await textOf(page, '#list-info', (t) => t.startsWith('1–50'))).toBe(`1–50 of ${total}`);
      await page.click('#older');
      expect(await textOf(page, '#list-info', (t) => t.startsWith('51'))).toBe(`51–100 of ${total}`);
      await page.click('#newer');
      await textOf(page, '#list-info', (t) => t.startsWith('1–50'));

      await page.selectOption('#tool-filter', 'ask');
      await page.click('#filters button[type=submit]');
      await textOf(page, '#list-info', (t) => t === '1–1 of 1');
      expect(await page.locator('#task-list tr[data-task-id]').getAttribute('data-task-id')).toBe(ids.asking);

      await page.click('#filters button[type=reset]');
      for (const s of ['working', 'input_required', 'completed', 'failed']) await page.uncheck(`#status-${s}`);
      await page.fill('#subject-filter', 'alice');
      await page.click('#filters button[type=submit]');
      const cancelledOfAlice = seeded.filter((t) => t.status === 'cancelled' && t.owner.includes('"alice"')).length + 1;
      await textOf(page, '#list-info', (t) => t === `1–${cancelledOfAlice} of ${cancelledOfAlice}`);
      const statuses = await page.locator('#task-list tr[data-task-id] .status').allTextContents();
      expect(new Set(statuses)).toEqual(new Set(['cancelled']));

      await page.click('#filters button[type=reset]');
      await page.selectOption('#age-filter', 'max:300000');
      await page.click('#filters button[type=submit]');
      await textOf(page, '#list-info', (t) => t === '1–8 of 8');
    } finally {
      await page.close();
    }
  }, 120_000);
});
