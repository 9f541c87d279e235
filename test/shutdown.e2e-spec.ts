import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryTaskStore } from '@mcp-tasks/nestjs';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, TASKS } from './support/mcp-request.js';

describe('graceful shutdown', () => {
  it('lets running tasks finish within shutdownGrace, ends the rest failed, takes no new tasks meanwhile', async () => {
    const store = new MemoryTaskStore();
    const app = await createFixtureApp({ store, shutdownGrace: 400 });
    const quick = (await call(app, 'wait', { ms: 150 }, { caps: TASKS })).body.result.taskId;
    const slow = (await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    const closing = app.close();
    await sleep(50);
    // Draining: a required tool is refused, an optional one runs in the request.
    const refused = await call(app, 'job', { ms: 1 }, { caps: TASKS });
    expect(refused.body.error.code).toBe(-32600);
    const inline = await call(app, 'wait', { ms: 1 }, { caps: TASKS });
    expect(inline.body.result).toMatchObject({ resultType: 'complete', content: [{ text: 'waited 1' }] });
    await closing;
    const now = Date.now();
    expect((await store.get(quick, now))?.status).toBe('completed');
    const failed = await store.get(slow, now);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringMatching(/interrupted: the server shut down/) },
    });
  });
});
