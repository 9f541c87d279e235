import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createHook } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, getTask, TASKS } from './support/mcp-request.js';

/**
 * Promises the server makes while it answers one request (from its start to its response's end). With an
 * OpenTelemetry SDK's context manager (`AsyncLocalStorage`, Node 20) each one runs its hooks, so every `async` step
 * and `await` on a value already known costs each `tools/call` and `tasks/get` again: the hot paths keep few.
 * Budgets with a little room: 14 a `tasks/get` and 36 a sync `tools/call` here when written (24 and 57 before).
 */
async function promisesOf(send: () => PromiseLike<unknown>): Promise<number> {
  let counting = false;
  let made = 0;
  const hook = createHook({
    init: (_id, type) => {
      if (counting && type === 'PROMISE') made++;
    },
  }).enable();
  const start = () => (counting = true);
  const finish = () => (counting = false);
  subscribe('http.server.request.start', start);
  subscribe('http.server.response.finish', finish);
  try {
    await send();
  } finally {
    unsubscribe('http.server.request.start', start);
    unsubscribe('http.server.response.finish', finish);
    hook.disable();
  }
  return made;
}

describe('promises on the hot paths', () => {
  let app: INestApplication;
  let taskId: string;
  beforeAll(async () => {
    app = await createFixtureApp();
    taskId = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    // Warm: first calls build pipelines and caches.
    for (let i = 0; i < 3; i++) await Promise.all([call(app, 'echo', { text: 'x' }), getTask(app, taskId)]);
  });
  afterAll(() => app.close());

  it('a tasks/get makes at most 16', async () => {
    const made = await promisesOf(() => getTask(app, taskId).expect(200));
    expect(made).toBeLessThanOrEqual(16);
  });

  it('a sync tools/call of a tool without a DTO makes at most 40', async () => {
    const made = await promisesOf(() => call(app, 'echo', { text: 'x' }).expect(200));
    expect(made).toBeLessThanOrEqual(40);
  });
});
