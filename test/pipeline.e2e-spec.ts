import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { call, TASKS, waitForTask } from './support/mcp-request.js';

describe("a user's own Nest enhancers on tool methods", () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createFixtureApp({ maxPerPrincipal: 1 });
  });
  afterAll(() => app.close());

  it('@UseGuards: a refusing guard answers 403 before any task exists', async () => {
    const before = observed.guardCalls;
    const denied = await call(app, 'guarded', { allow: false }, { caps: TASKS, id: 'g' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ id: 'g', error: { code: -32600, message: 'Forbidden resource' } });
    expect(observed.guardCalls).toBe(before + 1);
    // With a cap of one, a task created by the refused call would block this one.
    const allowed = await call(app, 'guarded', { allow: true }, { caps: TASKS });
    expect(allowed.body.result.resultType).toBe('task');
    expect((await waitForTask(app, allowed.body.result.taskId)).result.content[0].text).toBe('let through');
  });

  it('guards run before argument validation, on the raw arguments (as Nest runs guards before pipes)', async () => {
    const denied = await call(app, 'guardedTyped', { allow: false, ms: 'not a number' }, { id: 'gt' });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ id: 'gt', error: { code: -32600, message: 'Forbidden resource' } });
    expect(observed.guardArgs).toEqual({ allow: false, ms: 'not a number' });
    const invalid = await call(app, 'guardedTyped', { allow: true, ms: 'not a number' });
    expect(invalid.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^ms: /m) }] });
    const ok = await call(app, 'guardedTyped', { allow: true, ms: 5 });
    expect(ok.body.result.content[0].text).toBe('let through 5');
  });

  it('@UseInterceptors: runs around the method, in the request and inside a task', async () => {
    const sync = await call(app, 'intercepted', {});
    expect(sync.body.result.content[0].text).toBe('[inner]');
    const task = await call(app, 'intercepted', {}, { caps: TASKS });
    expect((await waitForTask(app, task.body.result.taskId)).result.content[0].text).toBe('[inner]');
  });

  it('@ToolArgs() and @ToolCtx() parameter decorators', async () => {
    const sync = await call(app, 'decorated', { ms: 0, tag: 'T' });
    expect(sync.body.result.content[0].text).toBe('T@decorated:sync:host');
    const task = await call(app, 'decorated', { ms: 0, tag: 'T' }, { caps: TASKS });
    expect((await waitForTask(app, task.body.result.taskId)).result.content[0].text).toBe('T@decorated:task:host');
  });

  it('an HttpException thrown by the method keeps its status in a synchronous call', async () => {
    const res = await call(app, 'forbidden', {});
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual({ code: -32600, message: 'not yours' });
  });

  it('invalid arguments create no task (the cap of one stays free)', async () => {
    const invalid = await call(app, 'job', { ms: 'x' }, { caps: TASKS });
    expect(invalid.body.result).toMatchObject({ resultType: 'complete', isError: true });
    const ok = await call(app, 'job', { ms: 0 }, { caps: TASKS });
    expect(ok.body.result.resultType).toBe('task');
    await waitForTask(app, ok.body.result.taskId);
  });
});

describe('HttpException inside a task', () => {
  it('ends the task failed with -32600 and its message', async () => {
    const app = await createFixtureApp();
    try {
      const res = await call(app, 'forbidden', {}, { caps: TASKS });
      const t = await waitForTask(app, res.body.result.taskId);
      expect(t).toMatchObject({ status: 'failed', error: { code: -32600, message: 'not yours' } });
    } finally {
      await app.close();
    }
  });
});
