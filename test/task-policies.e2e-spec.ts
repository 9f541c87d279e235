import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, getTask, rpc, TASKS, waitForTask } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';

const REQUIRED = { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } };

describe.each(PLATFORMS)('on %s', (platform) => {
  const fixtureApp = (options: Parameters<typeof createFixtureApp>[0] = {}, imports: unknown[] = []) =>
    createFixtureApp(options, imports, platform);

  describe('task policies and the per-request capability gate', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await fixtureApp();
    });
    afterAll(() => app.close());

    it('sync: never a task, even with the extension and a legacy task param', async () => {
      const res = await rpc(
        app,
        'tools/call',
        { name: 'echo', arguments: { text: 'hi' }, task: { ttl: 1000 } },
        { caps: TASKS },
      );
      expect(res.body.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'echo:hi' }] });
      expect(res.body.result.taskId).toBeUndefined();
    });

    it('optional: a task with the extension, synchronous without it', async () => {
      const task = await call(app, 'wait', { ms: 10 }, { caps: TASKS });
      expect(task.body.result.resultType).toBe('task');
      const sync = await call(app, 'wait', { ms: 10 }, { caps: {} });
      expect(sync.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'waited 10' }],
      });
    });

    it('task: true is optional by another name', async () => {
      const task = await call(app, 'flexible', { ms: 10 }, { caps: TASKS });
      expect(task.body.result.resultType).toBe('task');
      expect((await waitForTask(app, task.body.result.taskId)).result.content[0].text).toBe('flexible 10 task');
      const sync = await call(app, 'flexible', { ms: 10 }, { caps: {} });
      expect(sync.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'flexible 10 sync' }] });
    });

    it('required: a task with the extension, -32021 / 400 without it', async () => {
      const task = await call(app, 'job', { ms: 10 }, { caps: TASKS });
      expect(task.body.result.resultType).toBe('task');
      const refused = await call(app, 'job', { ms: 10 }, { caps: { elicitation: {} }, id: 'r1' });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ id: 'r1', error: { code: -32021, data: REQUIRED } });
    });

    it('capabilities are per request: an earlier declaration does not carry over', async () => {
      await call(app, 'wait', { ms: 1 }, { caps: TASKS });
      const next = await call(app, 'wait', { ms: 1 }, { caps: {} });
      expect(next.body.result.resultType).toBe('complete');
    });

    it('a policy function decides per call', async () => {
      const small = await call(app, 'chooser', { ms: 1 }, { caps: TASKS });
      expect(small.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'chose 1' }] });
      const big = await call(app, 'chooser', { ms: 100 }, { caps: TASKS });
      expect(big.body.result.resultType).toBe('task');
      const bigWithout = await call(app, 'chooser', { ms: 100 }, { caps: {} });
      expect(bigWithout.body.error.code).toBe(-32021);
    });

    it('invalid arguments are a tool error result, before any task exists', async () => {
      const res = await call(app, 'job', { ms: -5 }, { caps: TASKS });
      expect(res.body.result).toMatchObject({ resultType: 'complete', isError: true });
      expect(res.body.result.content[0].text).toBe('Invalid arguments for tool job:\nms: must not be less than 0');
    });
  });

  describe('limits: maxPerPrincipal, maxTasks, ttl', () => {
    it('at the owner cap an optional tool runs in the request and a required one gets -32600', async () => {
      const app = await fixtureApp({ maxPerPrincipal: 2 });
      try {
        const ids = [];
        for (let i = 0; i < 2; i++)
          ids.push((await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId);
        const sync = await call(app, 'wait', { ms: 5 }, { caps: TASKS });
        expect(sync.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'waited 5' }] });
        const refused = await call(app, 'job', { ms: 5 }, { caps: TASKS });
        expect(refused.body.error.code).toBe(-32600);
        expect(refused.body.error.message).toMatch(/limit/);
        // One ends: the owner may create again.
        await rpc(app, 'tasks/cancel', { taskId: ids[0] }, { caps: TASKS });
        expect((await call(app, 'job', { ms: 5 }, { caps: TASKS })).body.result.resultType).toBe('task');
      } finally {
        await app.close();
      }
    });

    it('owners are separated by the subject option; maxTasks caps the whole server', async () => {
      const app = await fixtureApp({
        maxPerPrincipal: 1,
        maxTasks: 2,
        subject: (req) => String(req.headers['x-tenant'] ?? 'none'),
      });
      try {
        const as = (tenant: string) => ({ caps: TASKS, headers: { 'x-tenant': tenant } });
        const a = await call(app, 'job', { ms: 60_000 }, as('a'));
        expect(a.body.result.resultType).toBe('task');
        expect((await call(app, 'job', { ms: 1 }, as('a'))).body.error.code).toBe(-32600);
        expect((await call(app, 'job', { ms: 60_000 }, as('b'))).body.result.resultType).toBe('task');
        // Server-wide cap reached although tenant c has none.
        expect((await call(app, 'job', { ms: 1 }, as('c'))).body.error.code).toBe(-32600);
        // Tenant b cannot see tenant a's task: same answer as an unknown id.
        const foreign = await getTask(app, a.body.result.taskId, as('b'));
        expect(foreign.body.error).toEqual({ code: -32602, message: 'Task not found' });
      } finally {
        await app.close();
      }
    });

    it('a task is readable until createdAt + ttl, then -32602', async () => {
      const app = await fixtureApp({ ttl: 300 });
      try {
        const res = await call(app, 'wait', { ms: 0 }, { caps: TASKS });
        expect(res.body.result.ttlMs).toBe(300);
        const id = res.body.result.taskId;
        expect((await waitForTask(app, id)).status).toBe('completed');
        await sleep(350);
        expect((await getTask(app, id)).body.error).toEqual({ code: -32602, message: 'Task not found' });
      } finally {
        await app.close();
      }
    });

    it('ttl: null keeps tasks and reports ttlMs null', async () => {
      const app = await fixtureApp({ ttl: null });
      try {
        const res = await call(app, 'wait', { ms: 0 }, { caps: TASKS });
        expect(res.body.result.ttlMs).toBeNull();
      } finally {
        await app.close();
      }
    });

    it('tasks: false — extension not advertised, every tool synchronous, tasks/* unknown', async () => {
      const app = await fixtureApp({ tasks: false });
      try {
        const discover = await rpc(app, 'server/discover');
        expect(discover.body.result.capabilities.extensions).toBeUndefined();
        const job = await call(app, 'job', { ms: 1, tag: 'x' }, { caps: TASKS });
        expect(job.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'job x' }] });
        const get = await getTask(app, 'x');
        expect(get.status).toBe(404);
        expect(get.body.error.code).toBe(-32601);
      } finally {
        await app.close();
      }
    });
  });
});
