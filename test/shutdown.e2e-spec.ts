import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryTaskStore, type TaskChange, type UpdateOutcome } from '@mcp-tasks/nestjs';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { CountingBus } from './support/counting-bus.js';
import { call, TASKS } from './support/mcp-request.js';
import { until } from './support/until.js';

/** A store that fails the first `failures` writes ending one task `failed` (a database hiccup at shutdown). */
class FlakyAtShutdownStore extends MemoryTaskStore {
  flaky?: string;
  failures = 0;
  override update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    if (id === this.flaky && change.kind === 'finish' && change.status === 'failed' && this.failures > 0) {
      this.failures--;
      return Promise.reject(new Error('connection terminated unexpectedly'));
    }
    return super.update(id, change, now);
  }
}

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

describe('graceful shutdown with a store error', () => {
  it('ends each task on its own, retries the one that failed, and still unsubscribes', async () => {
    const store = new FlakyAtShutdownStore();
    const bus = new CountingBus();
    const app = await createFixtureApp({ store, bus, shutdownGrace: 100 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId);
    await until('all running', async () => {
      const tasks = await Promise.all(ids.map((id) => store.get(id, Date.now())));
      return tasks.every((t) => t?.leaseOwner);
    });
    store.flaky = ids[0];
    store.failures = 2;
    expect(bus.subscribers).toBeGreaterThan(0);
    await app.close();
    for (const id of ids) expect((await store.get(id, Date.now()))?.status).toBe('failed');
    expect(store.failures).toBe(0);
    expect(bus.subscribers).toBe(0);
  });
});
